// tests/clients/Meta.java — pgjdbc (Debian's libpostgresql-jdbc-java) as
// tools drive it: DatabaseMetaData's listings, PreparedStatement with
// setDate/setTimestamp against DATE columns, and setFetchSize streaming
// with autocommit off. Prints canonical text, one block per call: "###
// label" then the rows (every column by label, "|"-separated) or "ERROR
// <SQLSTATE>: message". args[0] is a JDBC URL. tests/clients/test-clients.c
// runs it (java runs the source file: one JVM per test) against starqd and
// PostgreSQL 15 on the same data and compares the blocks.
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

public class Meta {
  interface Call {
    String run() throws SQLException;
  }

  static void call(String label, Call c) {
    System.out.println("### " + label);
    String s;
    try {
      s = c.run();
    } catch (SQLException e) {
      String m = String.valueOf(e.getMessage());
      int nl = m.indexOf('\n');
      s = "ERROR " + e.getSQLState() + ": " + (nl < 0 ? m : m.substring(0, nl)) + "\n";
    }
    System.out.print(s);
  }

  // Every row, every column as "label=value"; rows whose column zKeep is
  // not in keep are left out (null: keep all).
  static String rows(ResultSet rs, String zKeep, Set<String> keep) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    StringBuilder b = new StringBuilder();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      b.append(i > 1 ? "|" : "").append(md.getColumnLabel(i));
    }
    b.append('\n');
    while (rs.next()) {
      if (keep != null && !keep.contains(rs.getString(zKeep))) continue;
      for (int i = 1; i <= md.getColumnCount(); i++) {
        b.append(i > 1 ? "|" : "").append(rs.getString(i));
      }
      b.append('\n');
    }
    rs.close();
    return b.toString();
  }

  public static void main(String[] args) throws Exception {
    Connection c = DriverManager.getConnection(args[0], "starq", "");
    DatabaseMetaData md = c.getMetaData();
    call("getDatabaseProductName", () -> md.getDatabaseProductName() + " "
        + md.getDatabaseMajorVersion() + "\n");
    call("getSchemas", () -> rows(md.getSchemas(), null, null));
    call("getSchemas public", () -> rows(md.getSchemas(null, "pub%"), null, null));
    call("getTableTypes", () -> rows(md.getTableTypes(), null, null));
    call("getTables", () -> rows(md.getTables(null, "public", "%", new String[] {"TABLE"}),
                                 null, null));
    call("getTables all", () -> rows(md.getTables(null, "public", "%", null), null, null));
    call("getColumns customer", () -> rows(md.getColumns(null, "public", "customer", "%"),
                                           null, null));
    call("getColumns lineorder lo_%date",
         () -> rows(md.getColumns(null, null, "lineorder", "lo\\_%date"), null, null));
    call("getPrimaryKeys lineorder", () -> rows(md.getPrimaryKeys(null, "public", "lineorder"),
                                                null, null));
    call("getPrimaryKeys date", () -> rows(md.getPrimaryKeys(null, null, "date"), null, null));
    call("getImportedKeys lineorder",
         () -> rows(md.getImportedKeys(null, "public", "lineorder"), null, null));
    call("getExportedKeys customer",
         () -> rows(md.getExportedKeys(null, "public", "customer"), null, null));
    call("getIndexInfo part", () -> rows(md.getIndexInfo(null, "public", "part", false, false),
                                         null, null));
    // PostgreSQL has hundreds of types (every table's row type among them):
    // the ones starq's columns and expressions use are compared.
    Set<String> types = new HashSet<>(Arrays.asList("bool", "int2", "int4", "int8", "numeric",
        "float4", "float8", "text", "varchar", "bpchar", "date", "time", "timestamp",
        "timestamptz", "interval", "oid", "name", "char", "bytea"));
    call("getTypeInfo", () -> rows(md.getTypeInfo(), "TYPE_NAME", types));

    call("setDate", () -> {
      PreparedStatement ps = c.prepareStatement(
          "select d_datekey, d_dayofweek from date where d_datekey between ? and ? order by 1");
      ps.setDate(1, Date.valueOf("1997-12-30"));
      ps.setDate(2, Date.valueOf("1998-01-02"));
      return rows(ps.executeQuery(), null, null);
    });
    call("setTimestamp", () -> {
      PreparedStatement ps = c.prepareStatement(
          "select count(*), min(lo_orderdate), max(lo_commitdate) from lineorder "
          + "where lo_orderdate >= ? and lo_commitdate < ?");
      ps.setTimestamp(1, Timestamp.valueOf("1997-06-01 00:00:00"));
      ps.setTimestamp(2, Timestamp.valueOf("1997-09-01 12:30:00"));
      return rows(ps.executeQuery(), null, null);
    });
    call("setDate reused", () -> {
      PreparedStatement ps = c.prepareStatement(
          "select count(*) from lineorder where lo_orderdate = ?");
      StringBuilder b = new StringBuilder();
      for (String d : new String[] {"1992-01-02", "1994-07-15", "1998-08-02", "1999-01-01"}) {
        ps.setDate(1, Date.valueOf(d));  // the fifth run is server-prepared: a named statement
        ResultSet rs = ps.executeQuery();
        rs.next();
        b.append(d).append(' ').append(rs.getLong(1)).append('\n');
      }
      for (int i = 0; i < 3; i++) {
        ps.setDate(1, Date.valueOf("1996-03-0" + (i + 1)));
        ResultSet rs = ps.executeQuery();
        rs.next();
        b.append(rs.getLong(1)).append('\n');
      }
      return b.toString();
    });
    call("setFetchSize 100", () -> {
      c.setAutoCommit(false);
      Statement st = c.createStatement();
      st.setFetchSize(100);
      ResultSet rs = st.executeQuery("select * from lineorder");
      long n = 0, sumRevenue = 0, sumKey = 0;
      while (rs.next()) {
        n++;
        sumKey += rs.getLong("lo_orderkey");
        sumRevenue += rs.getLong("lo_revenue");
      }
      rs.close();
      c.commit();
      c.setAutoCommit(true);
      return "rows " + n + " sum(lo_orderkey) " + sumKey + " sum(lo_revenue) " + sumRevenue + "\n";
    });
    c.close();
  }
}

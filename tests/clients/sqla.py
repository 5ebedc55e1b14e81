# tests/clients/sqla.py — SQLAlchemy 1.4 (Debian's python3-sqlalchemy) and
# pandas through a psycopg2 engine, printed as canonical text: one block
# per client call, "### label" then its answer or "ERROR <SQLSTATE>: first
# line". argv[1] and argv[2] are the server's host (a name, or a socket
# folder) and port. tests/clients/test-clients.c runs this against starqd
# and against PostgreSQL 15 on the same data and compares the blocks.
import hashlib
import sys

import pandas
import sqlalchemy
from sqlalchemy import inspect, text


def call(label, fn):
    print("### " + label)
    try:
        v = fn()
    except Exception as e:  # the block says what failed; the next call goes on
        orig = getattr(e, "orig", e)
        code = getattr(orig, "pgcode", None)
        print("ERROR %s: %s" % (code, str(orig).splitlines()[0] if str(orig) else type(orig)))
        return None
    print(v if isinstance(v, str) else repr(v))
    return v


def columns_text(cols):
    # The reflected type as its SQL spelling: the objects themselves do not compare.
    return [(c["name"], str(c["type"]), c["nullable"], c["default"], c.get("autoincrement"),
             c.get("comment")) for c in cols]


def frame_text(df):
    # Large frames as their shape, ends and a digest of the whole CSV.
    csv = df.to_csv(index=False)
    if len(df) > 20:
        csv = "%d rows, md5 %s\n%s%s" % (len(df), hashlib.md5(csv.encode()).hexdigest(),
                                        df.head(3).to_csv(index=False),
                                        df.tail(2).to_csv(index=False, header=False))
    return "dtypes " + repr([str(t) for t in df.dtypes]) + "\n" + csv


def first_statement():
    with engine.connect() as conn:
        return conn.execute(text("select 1 as one")).fetchall()


def table_lineorder():
    lo = sqlalchemy.Table("lineorder", sqlalchemy.MetaData(), autoload_with=engine)
    return (list(lo.columns.keys()), [c.name for c in lo.primary_key],
            sorted(str(f.target_fullname) for f in lo.foreign_keys))


engine = sqlalchemy.create_engine("postgresql+psycopg2://starq@/starq?host=%s&port=%s"
                                  % (sys.argv[1], sys.argv[2]))
call("connect", first_statement)
call("server_version_info", lambda: engine.dialect.server_version_info[:1])
call("default_schema_name", lambda: engine.dialect.default_schema_name)
insp = call("inspect", lambda: type(inspect(engine)).__name__) and inspect(engine)
call("get_schema_names", insp.get_schema_names)
call("get_table_names", lambda: sorted(insp.get_table_names()))  # its query has no ORDER BY
call("get_view_names", insp.get_view_names)
for t in ("customer", "lineorder"):  # one key column and none referenced; two and five
    call("get_columns " + t, lambda: columns_text(insp.get_columns(t)))
    call("get_pk_constraint " + t, lambda: insp.get_pk_constraint(t))
    call("get_foreign_keys " + t, lambda: insp.get_foreign_keys(t))
    call("get_indexes " + t, lambda: insp.get_indexes(t))
    call("get_unique_constraints " + t, lambda: insp.get_unique_constraints(t))
    call("get_table_comment " + t, lambda: insp.get_table_comment(t))
call("get_columns public.part", lambda: columns_text(insp.get_columns("part", schema="public")))
call("has_table customer", lambda: insp.has_table("customer"))
call("has_table public.lineorder", lambda: insp.has_table("lineorder", schema="public"))
call("has_table nope", lambda: insp.has_table("nope"))
call("Table lineorder autoload", table_lineorder)

# SSB Q2.1 through pandas.read_sql; its ORDER BY makes the rows' order defined.
q21 = text("select sum(lo_revenue) as revenue, d_year, p_brand1 "
           "from lineorder, date, part, supplier "
           "where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey "
           "and p_category = 'MFGR#12' and s_region = 'AMERICA' "
           "group by d_year, p_brand1 order by d_year, p_brand1")
call("read_sql q2.1", lambda: frame_text(pandas.read_sql(q21, engine)))
call("read_sql params", lambda: frame_text(pandas.read_sql(
    text("select d_datekey, d_year, d_yearmonth from date "
         "where d_datekey between :lo and :hi order by d_datekey"),
    engine, params={"lo": "1997-12-30", "hi": "1998-01-02"}, parse_dates=["d_datekey"])))
# read_sql_table sends no ORDER BY: sort here, the scan's order is not defined.
call("read_sql_table customer", lambda: frame_text(
    pandas.read_sql_table("customer", engine).sort_values("c_custkey")))
call("read_sql_table date columns", lambda: frame_text(
    pandas.read_sql_table("date", engine, columns=["d_datekey", "d_month"])
    .sort_values("d_datekey").head(3)))

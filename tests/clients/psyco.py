# tests/clients/psyco.py — what psycopg 2 and 3 (Debian's python3-psycopg2,
# python3-psycopg) do beyond tests/test-daemon-cursor.c: copy_from with its
# own separator and NULL (the older COPY option syntax), binary COPY both
# ways, psycopg 3's write_row in text and binary, a WITH HOLD named cursor
# and stream(). One block per client call, "### label" then the answer or
# "ERROR <SQLSTATE>: first line". argv[1] is a libpq conninfo;
# tests/clients/test-clients.c compares starqd's blocks with PostgreSQL's.
import datetime
import io
import sys

import psycopg
import psycopg2

dsn = sys.argv[1]


def call(label, fn):
    print("### " + label)
    try:
        v = fn()
    except Exception as e:  # the block says what failed; the next call goes on
        code = getattr(e, "pgcode", None) or getattr(e, "sqlstate", None)
        print("ERROR %s: %s" % (code, str(e).splitlines()[0] if str(e) else type(e)))
        return
    print(v if isinstance(v, str) else repr(v))


c2 = psycopg2.connect(dsn)
c2.autocommit = True
cur = c2.cursor()
cur.execute("CREATE TABLE pyc (k INTEGER, name VARCHAR(20), d DATE)")


def table_text():
    cur.execute("SELECT k, name, d FROM pyc ORDER BY k")
    return repr(cur.fetchall())


def copy_from_sep():
    cur.copy_from(io.StringIO("1,one,1992-01-01\n2,,1998-12-31\n"), "pyc", sep=",", null="")
    return table_text()


def copy_expert_binary_out():
    buf = io.BytesIO()
    cur.copy_expert("COPY (SELECT s_suppkey, s_name, s_city FROM supplier ORDER BY 1 LIMIT 3) "
                    "TO STDOUT (FORMAT binary)", buf)
    return buf.getvalue().hex()


def copy_expert_binary_roundtrip():
    buf = io.BytesIO()
    cur.copy_expert("COPY pyc TO STDOUT WITH (FORMAT binary)", buf)
    buf.seek(0)
    cur.execute("CREATE TABLE pyc2 (k INTEGER, name VARCHAR(20), d DATE)")
    cur.copy_expert("COPY pyc2 FROM STDIN WITH (FORMAT binary)", buf)
    cur.execute("SELECT k, name, d FROM pyc2 ORDER BY k")
    return repr(cur.fetchall())


def withhold_cursor():
    c = psycopg2.connect(dsn)
    named = c.cursor(name="held", withhold=True)
    named.itersize = 50
    named.execute("SELECT c_custkey, c_nation FROM customer WHERE c_custkey <= 120 ORDER BY 1")
    first = named.fetchmany(2)
    c.commit()  # a WITH HOLD cursor outlives its transaction
    rest = named.fetchall()
    named.close()
    c.close()
    return repr((first, len(rest), rest[-1]))


def psycopg3_write_row(binary):
    fmt = " (FORMAT binary)" if binary else ""
    with psycopg.connect(dsn, autocommit=True) as c3:
        with c3.cursor() as cur3:
            with cur3.copy("COPY pyc (k, name, d) FROM STDIN" + fmt) as cp:
                if binary:
                    cp.set_types(["int4", "varchar", "date"])
                base = 10 if binary else 20
                cp.write_row((base, "row", datetime.date(1995, 6, 1)))
                cp.write_row((base + 1, None, datetime.date(1996, 2, 29)))
            cur3.execute("SELECT k, name, d FROM pyc WHERE k >= %s ORDER BY k", (base,))
            return repr(cur3.fetchall())


def psycopg3_stream():
    with psycopg.connect(dsn) as c3:
        n = 0
        last = None
        for row in c3.cursor().stream("SELECT d_datekey, d_year FROM date ORDER BY d_datekey"):
            n += 1
            last = row
        return repr((n, last))


def psycopg3_binary_params():
    with psycopg.connect(dsn) as c3:
        cur3 = c3.cursor(binary=True)
        cur3.execute("SELECT count(*), min(lo_orderdate) FROM lineorder "
                     "WHERE lo_orderdate >= %b AND lo_quantity < %b",
                     (datetime.date(1998, 1, 1), 10))
        return repr(cur3.fetchall())


call("psycopg2 copy_from sep null", copy_from_sep)
call("psycopg2 copy_expert binary TO", copy_expert_binary_out)
call("psycopg2 copy_expert binary round trip", copy_expert_binary_roundtrip)
call("psycopg2 named cursor withhold", withhold_cursor)
call("psycopg3 copy write_row text", lambda: psycopg3_write_row(False))
call("psycopg3 copy write_row binary", lambda: psycopg3_write_row(True))
call("psycopg3 stream", psycopg3_stream)
call("psycopg3 binary parameters", psycopg3_binary_params)
c2.close()

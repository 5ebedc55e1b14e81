// tests/clients/pg.js — node-postgres (Debian's node-pg, with pg-cursor)
// with Date parameters, a named prepared statement and a cursor read in
// batches. One block per client call, "### label" then the answer or
// "ERROR <SQLSTATE>: message". argv[2] and argv[3] are the server's host
// (a name, or a socket folder) and port; tests/clients/test-clients.c
// compares starqd's blocks with PostgreSQL's.
'use strict';
process.env.TZ = 'UTC';  // Date parameters are sent in the process's zone
const pg = require('pg');
const Cursor = require('pg-cursor');

async function call(label, fn) {
  let s;
  try {
    s = await fn();
  } catch (e) {
    s = 'ERROR ' + e.code + ': ' + String(e.message).split('\n')[0];
  }
  console.log('### ' + label + '\n' + s);
}

function rowsText(res) {
  const head = res.fields.map((f) => f.name + ':' + f.dataTypeID).join('|');
  const body = res.rows.map((r) => Object.values(r).map((v) =>
    v instanceof Date ? v.toISOString() : String(v)).join('|'));
  return [head].concat(body).join('\n');
}

async function main() {
  const c = new pg.Client({host: process.argv[2], port: Number(process.argv[3]),
                           user: 'starq', database: 'starq'});
  await c.connect();
  await call('Date parameters', async () => rowsText(await c.query(
    'select d_datekey, d_dayofweek from date where d_datekey between $1 and $2 order by 1',
    [new Date(Date.UTC(1997, 11, 30)), new Date(Date.UTC(1998, 0, 2))])));
  await call('Date with a time of day', async () => rowsText(await c.query(
    'select count(*) as n, min(lo_orderdate) as lo from lineorder ' +
    'where lo_orderdate >= $1 and lo_commitdate < $2',
    [new Date(Date.UTC(1997, 5, 1, 0, 0, 0)), new Date(Date.UTC(1997, 8, 1, 12, 30, 0))])));
  await call('named statement', async () => {
    const out = [];
    for (const d of ['1992-01-02', '1994-07-15', '1998-08-02']) {
      const res = await c.query({name: 'by_day', values: [new Date(d + 'T00:00:00Z')],
                                 text: 'select count(*) as n from lineorder where lo_orderdate = $1'});
      out.push(d + ' ' + res.rows[0].n);
    }
    return out.join('\n');
  });
  await call('rowMode array', async () => rowsText(await c.query({rowMode: 'array',
    text: 'select s_suppkey, s_name, s_city from supplier where s_suppkey < $1 order by 1',
    values: [4]})));
  await call('pg-cursor batches of 1000', async () => {
    const cur = c.query(new Cursor('select lo_orderkey, lo_revenue from lineorder'));
    let n = 0, sum = 0n, batches = 0;
    for (;;) {
      const rows = await cur.read(1000);
      if (rows.length === 0) break;
      batches++;
      for (const r of rows) {
        n++;
        sum += BigInt(r.lo_revenue);
      }
    }
    await cur.close();
    return 'rows ' + n + ' batches ' + batches + ' sum(lo_revenue) ' + sum;
  });
  await c.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// The official ClickHouse JS client (@clickhouse/client) against a running
// muscles (URL in MUSCLES_URL): ping, DDL through command, inserts in
// JSONEachRow, queries in JSON / JSONEachRow / CSV / TabSeparated, a
// streamed result of 1,000,000 rows, query parameters, sessions, compression
// both ways, errors surfacing as the client's error type with the code, and
// X-ClickHouse-Progress headers (send_progress_in_http_headers) it accepts.
import { createClient, ClickHouseError } from '@clickhouse/client';
import assert from 'node:assert/strict';

const url = process.env.MUSCLES_URL;
const client = createClient({
  url,
  compression: { request: true, response: true },
  clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
});

let passed = 0;
async function step(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    console.log(`FAIL ${name}: ${e.stack || e}`);
    process.exitCode = 1;
  }
}

await step('ping', async () => {
  const r = await client.ping();
  assert.equal(r.success, true);
});

await step('command: DDL', async () => {
  await client.command({ query: 'DROP TABLE IF EXISTS js_events' });
  await client.command({
    query: 'CREATE TABLE js_events (id UInt64, name String, ts DateTime, tags Array(String)) ' +
      'ENGINE = MergeTree ORDER BY id',
  });
});

await step('insert JSONEachRow', async () => {
  await client.insert({
    table: 'js_events',
    values: [
      { id: 1, name: 'a', ts: '2024-01-01 00:00:00', tags: ['x'] },
      { id: 2, name: 'b', ts: '2024-01-02 00:00:00', tags: [] },
      { id: 3, name: 'c\t"q"', ts: '2024-01-03 00:00:00', tags: ['y', 'z'] },
    ],
    format: 'JSONEachRow',
  });
});

await step('query JSON', async () => {
  const rs = await client.query({ query: 'SELECT id, name, tags FROM js_events ORDER BY id', format: 'JSON' });
  const j = await rs.json();
  assert.deepEqual(j.meta.map((m) => m.name), ['id', 'name', 'tags']);
  assert.equal(j.rows, 3);
  assert.deepEqual(j.data[2], { id: '3', name: 'c\t"q"', tags: ['y', 'z'] });
});

await step('query JSONEachRow', async () => {
  const rs = await client.query({ query: 'SELECT id, name FROM js_events ORDER BY id', format: 'JSONEachRow' });
  const rows = await rs.json();
  assert.deepEqual(rows, [{ id: '1', name: 'a' }, { id: '2', name: 'b' }, { id: '3', name: 'c\t"q"' }]);
});

await step('query CSV and TabSeparated', async () => {
  const csv = await (await client.query({ query: 'SELECT id, name FROM js_events WHERE id < 3 ORDER BY id', format: 'CSV' })).text();
  assert.equal(csv, '1,"a"\n2,"b"\n');
  const tsv = await (await client.query({ query: 'SELECT id, name FROM js_events WHERE id = 3', format: 'TabSeparated' })).text();
  assert.equal(tsv, '3\tc\\t"q"\n');
});

await step('streamed select of 1,000,000 rows', async () => {
  const rs = await client.query({ query: 'SELECT number FROM numbers(1000000)', format: 'JSONCompactEachRow' });
  let count = 0;
  let sum = 0n;
  for await (const rows of rs.stream()) {
    for (const row of rows) {
      const [n] = row.json();
      sum += BigInt(n);
      count++;
    }
  }
  assert.equal(count, 1000000);
  assert.equal(sum, 499999500000n);
});

await step('query parameters', async () => {
  const rs = await client.query({
    query: 'SELECT name FROM js_events WHERE id = {id:UInt64} AND name != {skip:String}',
    query_params: { id: 2, skip: 'zzz' },
    format: 'JSONEachRow',
  });
  assert.deepEqual(await rs.json(), [{ name: 'b' }]);
});

await step('sessions keep settings and the database', async () => {
  const s = createClient({ url, session_id: `js-${Date.now()}` });
  await s.command({ query: 'CREATE DATABASE IF NOT EXISTS js_db' });
  await s.command({ query: 'USE js_db' });
  const rs = await s.query({ query: 'SELECT currentDatabase() AS db', format: 'JSONEachRow' });
  assert.deepEqual(await rs.json(), [{ db: 'js_db' }]);
  await s.close();
});

await step('errors are ClickHouseError with the code', async () => {
  await assert.rejects(
    client.query({ query: 'SELECT * FROM no_such_table_js', format: 'JSON' }),
    (e) => e instanceof ClickHouseError && e.code === '60' && /UNKNOWN_TABLE|does not exist/.test(e.message),
  );
});

await step('progress headers (send_progress_in_http_headers)', async () => {
  const rs = await client.query({
    query: 'SELECT sum(number) AS s FROM numbers(20000000)',
    format: 'JSONEachRow',
    // Node refuses heads over 16 KiB (HPE_HEADER_OVERFLOW, as with ClickHouse):
    // a few reports, not one per block.
    clickhouse_settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '5' },
  });
  // Node joins repeated fields with ", ": one JSON object per report.
  const progress = rs.response_headers['x-clickhouse-progress'];
  assert.match(progress, /^\{"read_rows":"\d+","total_rows_to_read":"20000000","elapsed_ns":"\d+"\}/);
  assert.deepEqual(await rs.json(), [{ s: '199999990000000' }]);
  const summary = JSON.parse(rs.response_headers['x-clickhouse-summary']);
  assert.equal(summary.read_rows, '20000000');
});

await step('an error after progress headers keeps status 200 and carries the code', async () => {
  const rs = await client.query({
    query: 'SELECT sum(throwIf(number = 300000)) FROM numbers(400000)',
    format: 'TabSeparated',
    clickhouse_settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '0' },
  });
  assert.ok(rs.response_headers['x-clickhouse-progress']);
  assert.equal(rs.response_headers['x-clickhouse-exception-code'], '395');
  assert.match(await rs.text(), /^Code: 395\. DB::Exception: .*\(FUNCTION_THROW_IF_VALUE_IS_NON_ZERO\)/);
});

await client.close();
console.log(`${passed} passed`);

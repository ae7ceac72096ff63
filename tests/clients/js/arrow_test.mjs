// Arrow and ArrowStream output of a running muscles (URL in MUSCLES_URL),
// fetched over plain HTTP and read by the official readers: apache-arrow
// (tableFromIPC, RecordBatchReader) and nodejs-polars (readIPC,
// readIPCStream). A table of every muscles type with edge values and NULLs
// is checked field by field (names, Arrow types, nullability) and value by
// value; then a 200,000-row result (several record batches), an empty
// result, lz4_frame / zstd bodies (read by polars: apache-arrow 21 ships no
// codec and must refuse them), dictionary-encoded LowCardinality with deltas
// across batches, the output_format_arrow_* settings and the errors for
// types without an Arrow form.
import { tableFromIPC, RecordBatchReader, Type } from 'apache-arrow';
import pl from 'nodejs-polars';
import assert from 'node:assert/strict';

const url = process.env.MUSCLES_URL;
let passed = 0;
let failed = 0;
async function step(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.stack || e}`);
    process.exitCode = 1;
  }
}

// POSTs a query; settings go in the URL. Returns the fetch Response.
async function post(query, settings = {}) {
  const params = new URLSearchParams(settings);
  return fetch(`${url}/?${params}`, { method: 'POST', body: query });
}
async function run(query, settings = {}) {
  const r = await post(query, settings);
  const text = await r.text();
  assert.equal(r.status, 200, `${query.slice(0, 80)}: ${text}`);
}
// Arrow bytes of a SELECT in `format`; uncompressed unless settings say.
async function arrowBytes(query, format, settings = {}) {
  const r = await post(`${query} FORMAT ${format}`,
    { output_format_arrow_compression_method: 'none', ...settings });
  const body = Buffer.from(await r.arrayBuffer());
  assert.equal(r.status, 200, body.toString());
  assert.equal(r.headers.get('content-type'), 'application/octet-stream');
  assert.equal(r.headers.get('x-clickhouse-format'), format);
  return body;
}
const polarsRead = (bytes, format) => (format === 'Arrow' ? pl.readIPC(bytes) : pl.readIPCStream(bytes));

// ---- canonical values ------------------------------------------------------

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const big = (v) => (typeof v === 'bigint' ? v.toString() : v);
function fmtFloat(v) {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return Object.is(v, -0) ? '-0' : String(v);
}
// Raw stored value of row i of a Date / Timestamp / Decimal vector (the
// days, the ticks, the unscaled integer) as a decimal string.
function rawValue(vec, i) {
  for (const d of vec.data) {
    if (i >= d.length) { i -= d.length; continue; }
    const at = d.offset + i;
    if (vec.type.typeId !== Type.Decimal) return String(d.values[at]);
    const words = d.values;
    const bits = BigInt(words.BYTES_PER_ELEMENT * 8);
    const stride = words.length / (d.offset + d.length);
    let v = 0n;
    for (let k = stride - 1; k >= 0; k--) v = (v << bits) | BigInt(words[at * stride + k]);
    const width = bits * BigInt(stride);
    return String(v >> (width - 1n) ? v - (1n << width) : v);
  }
  throw new Error('row out of range');
}
// Row i of an apache-arrow vector as plain JS (strings for numbers).
function canon(vec, i) {
  if (!vec.isValid(i)) return null;
  const v = vec.get(i);
  switch (vec.type.typeId) {
    case Type.Int: case Type.Bool: return String(v);
    case Type.Float: return fmtFloat(v);
    case Type.Utf8: return v;
    case Type.Binary: case Type.FixedSizeBinary: return hex(v);
    case Type.Date: case Type.Timestamp: case Type.Decimal: return rawValue(vec, i);
    case Type.List: return Array.from({ length: v.length }, (_, j) => canon(v, j));
    case Type.Map: return Object.fromEntries([...v].map(([k, x]) => [k, x == null ? null : big(x)]));
    case Type.Dictionary: return v;
    default: throw new Error(`no canonical form for ${vec.type}`);
  }
}
// A polars column as plain JS: scalars through a cast to String inside
// polars, binary as hex, lists and maps (List(Struct)) as they come.
function polarsColumn(df, name, kind) {
  if (kind === 'binary') {
    return df.select(pl.col(name).cast(pl.List(pl.UInt8))).getColumn(name).toArray()
      .map((b) => (b == null ? null : hex(b)));
  }
  if (kind === 'nested') {
    return JSON.parse(JSON.stringify(df.getColumn(name).toArray(), (k, x) => big(x)));
  }
  return df.select(pl.col(name).cast(pl.Utf8)).getColumn(name).toArray();
}
// polars' name for a column's type; FixedSizeBinary has none in nodejs-polars,
// so its printed Series header is used.
function polarsType(df, name) {
  try {
    return String(df.select(name).dtypes[0]).replace(/^DataType\((.*)\)$/, '$1');
  } catch {
    return /\[(\w+)\]/.exec(df.select(pl.col(name)).getColumn(name).toString())[1];
  }
}

// ---- the table of every type ------------------------------------------------

const d = (s) => String(Date.parse(`${s}T00:00:00Z`) / 86400000);
const ms = (s) => Date.parse(`${s}Z`);
// name, type, the three inserted JSON values, then what apache-arrow shows
// (type, nullable, canonical values) and what polars shows (type, values,
// value kind). Rows: minimum / edge, maximum / edge, NULL or zero.
const C = (name, type, insert, arrowType, nullable, arrowValues, polarsTypeName, polarsValues,
  kind = 'scalar') => ({ name, type, insert, arrowType, nullable, arrowValues, polarsTypeName,
  polarsValues: polarsValues === undefined ? arrowValues : polarsValues, kind });
const uuids = ['61f0c404-5cb3-11e7-907b-a6006ad3dba0', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-000000000000'];
const columns = [
  C('u8', 'UInt8', [0, 255, 7], 'Uint8', false, ['0', '255', '7'], 'UInt8'),
  C('u16', 'UInt16', [0, 65535, 7], 'Uint16', false, ['0', '65535', '7'], 'UInt16'),
  C('u32', 'UInt32', [0, 4294967295, 7], 'Uint32', false, ['0', '4294967295', '7'], 'UInt32'),
  C('u64', 'UInt64', ['0', '18446744073709551615', '7'], 'Uint64', false,
    ['0', '18446744073709551615', '7'], 'UInt64'),
  C('i8', 'Int8', [-128, 127, 0], 'Int8', false, ['-128', '127', '0'], 'Int8'),
  C('i16', 'Int16', [-32768, 32767, 0], 'Int16', false, ['-32768', '32767', '0'], 'Int16'),
  C('i32', 'Int32', [-2147483648, 2147483647, 0], 'Int32', false,
    ['-2147483648', '2147483647', '0'], 'Int32'),
  C('i64', 'Int64', ['-9223372036854775808', '9223372036854775807', '0'], 'Int64', false,
    ['-9223372036854775808', '9223372036854775807', '0'], 'Int64'),
  C('f32', 'Float32', [-1.5, 'inf', 'nan'], 'Float32', false, ['-1.5', 'inf', 'nan'], 'Float32',
    ['-1.5', 'inf', 'NaN']),
  C('f64', 'Float64', ['-inf', 1e300, 0.1], 'Float64', false, ['-inf', '1e+300', '0.1'], 'Float64',
    ['-inf', '1e+300', '0.1']),
  C('b', 'Bool', [false, true, false], 'Bool', false, ['false', 'true', 'false'], 'Bool'),
  C('s', 'String', ['', 'héllo\t"q"\n\\', 'z'], 'Utf8', false, ['', 'héllo\t"q"\n\\', 'z'], 'String'),
  C('fs', 'FixedString(4)', ['ab', 'abcd', ''], 'FixedSizeBinary[4]', false,
    ['61620000', '61626364', '00000000'], 'binary', undefined, 'binary'),
  C('d', 'Date', ['1970-01-01', '2149-06-06', '2024-02-29'], 'Date32<DAY>', false,
    [d('1970-01-01'), d('2149-06-06'), d('2024-02-29')], 'Date',
    ['1970-01-01', '2149-06-06', '2024-02-29']),
  C('d32', 'Date32', ['1900-01-01', '2299-12-31', '1969-12-31'], 'Date32<DAY>', false,
    [d('1900-01-01'), d('2299-12-31'), '-1'], 'Date', ['1900-01-01', '2299-12-31', '1969-12-31']),
  C('dt', 'DateTime', ['1970-01-01 00:00:00', '2106-02-07 06:28:15', '2024-01-01 00:00:00'],
    'Uint32', false, ['0', '4294967295', '1704067200'], 'UInt32'),
  C('dtz', "DateTime('Asia/Tokyo')", ['1970-01-01 09:00:00', '2024-01-01 09:00:00',
    '1970-01-01 09:00:01'], 'Uint32', false, ['0', '1704067200', '1'], 'UInt32'),
  C('dt64', "DateTime64(3, 'Europe/Berlin')", ['2024-01-02 03:04:05.123', '1900-01-02 00:00:00.000',
    '1970-01-01 01:00:00.001'], 'Timestamp<MILLISECOND, Europe/Berlin>', false,
    [String(ms('2024-01-02T02:04:05.123')), String(ms('1900-01-01T23:00:00')), '1'],
    'Datetime(ms,Europe/Berlin)', ['2024-01-02 03:04:05.123+01:00',
      '1900-01-02 00:00:00.000+01:00', '1970-01-01 01:00:00.001+01:00']),
  C('dt64s', 'DateTime64(0)', ['2000-01-01 00:00:00', '1969-12-31 23:59:59', '1970-01-01 00:00:00'],
    'Timestamp<SECOND>', false, ['946684800', '-1', '0'], 'Datetime(ms,)',
    ['2000-01-01 00:00:00.000', '1969-12-31 23:59:59.000', '1970-01-01 00:00:00.000']),
  C('dt64u', 'DateTime64(5)', ['1900-01-01 00:00:00.00001', '2299-12-31 23:59:59.99999',
    '1970-01-01 00:00:00.00000'], 'Timestamp<MICROSECOND>', false,
    [String(BigInt(ms('1900-01-01T00:00:00')) * 1000n + 10n),
      String(BigInt(ms('2299-12-31T23:59:59')) * 1000n + 999990n), '0'], 'Datetime(us,)',
    ['1900-01-01 00:00:00.000010', '2299-12-31 23:59:59.999990', '1970-01-01 00:00:00.000000']),
  C('dt64n', 'DateTime64(9)', ['2262-04-11 23:47:16.854775807', '1970-01-01 00:00:00.000000001',
    '1900-01-01 00:00:00.000000000'], 'Timestamp<NANOSECOND>', false,
    ['9223372036854775807', '1', '-2208988800000000000'], 'Datetime(ns,)',
    ['2262-04-11 23:47:16.854775807', '1970-01-01 00:00:00.000000001',
      '1900-01-01 00:00:00.000000000']),
  C('dec32', 'Decimal(9, 2)', ['-9999999.99', '9999999.99', '0'], 'Decimal[9e+2]', false,
    ['-999999999', '999999999', '0'], 'Decimal(9,2)', ['-9999999.99', '9999999.99', '0.00']),
  C('dec64', 'Decimal(18, 4)', ['-12345678901234.5678', '0.0001', '1'], 'Decimal[18e+4]', false,
    ['-123456789012345678', '1', '10000'], 'Decimal(18,4)',
    ['-12345678901234.5678', '0.0001', '1.0000']),
  C('dec128', 'Decimal(38, 10)', ['-1234567890123456789012345678.0123456789',
    '9999999999999999999999999999.9999999999', '0.0000000001'], 'Decimal[38e+10]', false,
    ['-12345678901234567890123456780123456789', '99999999999999999999999999999999999999', '1'],
    'Decimal(38,10)', ['-1234567890123456789012345678.0123456789',
      '9999999999999999999999999999.9999999999', '0.0000000001']),
  C('uuid', 'UUID', uuids, 'FixedSizeBinary[16]', false, uuids.map((u) => u.replaceAll('-', '')),
    'binary', undefined, 'binary'),
  C('e8', "Enum8('a' = -128, 'b' = 127)", ['a', 'b', 'b'], 'Int8', false, ['-128', '127', '127'],
    'Int8'),
  C('e16', "Enum16('x' = -32768, 'y' = 32767)", ['y', 'x', 'y'], 'Int16', false,
    ['32767', '-32768', '32767'], 'Int16'),
  C('ns', 'Nullable(String)', [null, 'n', ''], 'Utf8', true, [null, 'n', ''], 'String'),
  C('ni', 'Nullable(Int32)', [null, -5, 0], 'Int32', true, [null, '-5', '0'], 'Int32'),
  C('nd', 'Nullable(Date)', [null, '2000-01-01', '1970-01-01'], 'Date32<DAY>', true,
    [null, '10957', '0'], 'Date', [null, '2000-01-01', '1970-01-01']),
  C('ndec', 'Nullable(Decimal(9, 2))', [null, '-1.5', '0.01'], 'Decimal[9e+2]', true,
    [null, '-150', '1'], 'Decimal(9,2)', [null, '-1.50', '0.01']),
  C('nuuid', 'Nullable(UUID)', [null, uuids[0], uuids[2]], 'FixedSizeBinary[16]', true,
    [null, uuids[0].replaceAll('-', ''), uuids[2].replaceAll('-', '')], 'binary', undefined,
    'binary'),
  C('arr', 'Array(Nullable(Int32))', [[], [1, null, -3], [null]], 'List<Int32>', false,
    [[], ['1', null, '-3'], [null]], 'List(DataType(Int32))', [[], [1, null, -3], [null]], 'nested'),
  C('arrs', 'Array(String)', [['a', ''], [], ['x']], 'List<Utf8>', false, [['a', ''], [], ['x']],
    'List(DataType(String))', undefined, 'nested'),
  C('arr2', 'Array(Array(UInt8))', [[[1, 2], []], [], [[255]]], 'List<List<Uint8>>', false,
    [[['1', '2'], []], [], [['255']]], 'List(DataType(List(DataType(UInt8))))', [[[1, 2], []], [], [[255]]],
    'nested'),
  C('m', 'Map(String, Nullable(UInt64))', [{ k: 1, n: null }, {}, { z: '18446744073709551615' }],
    'Map<{key:Utf8, value:Uint64}>', false, [{ k: '1', n: null }, {}, { z: '18446744073709551615' }],
    'List(DataType(Struct(Field("key", DataType(String)),Field("value", DataType(UInt64)))))',
    [[{ key: 'k', value: '1' }, { key: 'n', value: null }], [],
      [{ key: 'z', value: '18446744073709551615' }]], 'nested'),
  C('lcs', 'LowCardinality(String)', ['a', 'b', 'a'], 'Utf8', false, ['a', 'b', 'a'], 'String'),
  C('lcn', 'LowCardinality(Nullable(String))', [null, 'q', 'q'], 'Utf8', true, [null, 'q', 'q'],
    'String'),
  C('alc', 'Array(LowCardinality(String))', [['x', 'y'], [], ['x']], 'List<Utf8>', false,
    [['x', 'y'], [], ['x']], 'List(DataType(String))', undefined, 'nested'),
];
const NUL = C('nul', 'Nullable(Nothing)', null, 'Binary', true, [null, null, null], 'binary',
  [null, null, null], 'binary');
const typesQuery = `SELECT ${columns.map((c) => c.name).join(', ')}, NULL AS nul FROM arrow_types ORDER BY id`;

// Checks a table read by apache-arrow against `cols`.
function checkArrow(table, cols, rows) {
  assert.deepEqual(table.schema.fields.map((f) => f.name), cols.map((c) => c.name));
  assert.equal(table.numRows, rows);
  for (const c of cols) {
    const f = table.schema.fields.find((x) => x.name === c.name);
    assert.equal(String(f.type), c.arrowType, `${c.name}: Arrow type`);
    assert.equal(f.nullable, c.nullable, `${c.name}: nullable`);
    const vec = table.getChild(c.name);
    const got = Array.from({ length: rows }, (_, i) => canon(vec, i));
    assert.deepEqual(got, c.arrowValues.slice(0, rows), `${c.name}: values`);
  }
}
function checkPolars(df, cols, rows) {
  assert.deepEqual(df.columns, cols.map((c) => c.name));
  assert.equal(df.height, rows);
  for (const c of cols) {
    assert.equal(polarsType(df, c.name), c.polarsTypeName, `${c.name}: polars type`);
    assert.deepEqual(polarsColumn(df, c.name, c.kind), c.polarsValues.slice(0, rows),
      `${c.name}: polars values`);
  }
}

await step('create and fill a table of every type', async () => {
  await run('DROP TABLE IF EXISTS arrow_types');
  await run(`CREATE TABLE arrow_types (id UInt32, ${columns.map((c) => `${c.name} ${c.type}`).join(', ')}) ` +
    'ENGINE = MergeTree ORDER BY id');
  const lines = [0, 1, 2].map((r) => JSON.stringify(Object.fromEntries(
    [['id', r + 1], ...columns.map((c) => [c.name, c.insert[r]])])));
  await run(`INSERT INTO arrow_types FORMAT JSONEachRow\n${lines.join('\n')}`);
});

for (const format of ['ArrowStream', 'Arrow']) {
  await step(`${format}: every type through apache-arrow (schema, nullability, values)`, async () => {
    const bytes = await arrowBytes(typesQuery, format);
    const table = tableFromIPC(bytes);
    checkArrow(table, [...columns, NUL], 3);
    const uuid = table.schema.fields.find((f) => f.name === 'uuid');
    assert.equal(uuid.metadata.get('ARROW:extension:name'), 'arrow.uuid');
    assert.equal(table.schema.fields.find((f) => f.name === 'arr').type.children[0].nullable, true);
  });

  await step(`${format}: every type through nodejs-polars`, async () => {
    // polars refuses the arrow.uuid extension type ("cannot create series
    // from Extension"), as it does with ClickHouse's output; the UUID columns
    // are read with output_format_arrow_uuid_as_fixed_byte_array = 1.
    const bytes = await arrowBytes(typesQuery, format,
      { output_format_arrow_uuid_as_fixed_byte_array: 1 });
    checkPolars(polarsRead(bytes, format), [...columns, NUL], 3);
  });

  await step(`${format}: an empty result is a schema and no rows`, async () => {
    const bytes = await arrowBytes(`${typesQuery.replace(' ORDER BY id', ' WHERE id > 100')}`, format,
      { output_format_arrow_uuid_as_fixed_byte_array: 1 });
    const table = tableFromIPC(bytes);
    assert.equal(table.numRows, 0);
    assert.deepEqual(table.schema.fields.map((f) => `${f.name}:${f.type}`),
      [...columns, NUL].map((c) => `${c.name}:${c.arrowType}`));
    const df = polarsRead(bytes, format);
    assert.equal(df.height, 0);
    assert.deepEqual(df.columns, [...columns, NUL].map((c) => c.name));
  });

  await step(`${format}: 200,000 rows in several record batches`, async () => {
    const query = 'SELECT number AS n, toString(number) AS s, if(number % 7 = 0, NULL, number) AS x ' +
      'FROM numbers(200000)';
    const bytes = await arrowBytes(query, format);
    let batches = 0;
    let rows = 0;
    let sum = 0n;
    for (const batch of RecordBatchReader.from(bytes)) {
      batches++;
      const n = batch.getChild('n');
      const s = batch.getChild('s');
      const x = batch.getChild('x');
      for (let i = 0; i < batch.numRows; i++, rows++) {
        const v = n.get(i);
        assert.equal(v, BigInt(rows));
        sum += v;
        if (i % 997 === 0) assert.equal(s.get(i), String(rows));
        assert.equal(x.get(i), rows % 7 === 0 ? null : BigInt(rows));
      }
    }
    assert.ok(batches > 1, `${batches} record batch(es)`);
    assert.equal(rows, 200000);
    assert.equal(sum, 199999n * 200000n / 2n);
    const df = polarsRead(bytes, format);
    assert.equal(df.height, 200000);
    assert.equal(df.getColumn('n').sum(), 199999 * 200000 / 2);
    assert.equal(df.getColumn('x').nullCount(), Math.ceil(200000 / 7));
    assert.equal(df.getColumn('s').get(123457), '123457');
  });

  for (const method of ['lz4_frame', 'zstd']) {
    await step(`${format}: ${method} bodies read by polars (apache-arrow has no codec)`, async () => {
      const settings = method === 'lz4_frame' ? {} : { output_format_arrow_compression_method: method };
      const r = await post(`${typesQuery} FORMAT ${format}`,
        { output_format_arrow_uuid_as_fixed_byte_array: 1, ...settings });
      assert.equal(r.status, 200);
      const bytes = Buffer.from(await r.arrayBuffer());
      checkPolars(polarsRead(bytes, format), [...columns, NUL], 3);
      assert.throws(() => tableFromIPC(bytes), /compressed but codec not found/);
      const plain = await arrowBytes(typesQuery, format, { output_format_arrow_uuid_as_fixed_byte_array: 1 });
      assert.notDeepEqual(bytes, plain);
      // Many rows: the buffers really shrink.
      const q = 'SELECT number % 10 AS n, toString(number % 3) AS s FROM numbers(100000)';
      const small = await (await post(`${q} FORMAT ${format}`, settings)).arrayBuffer();
      const large = await arrowBytes(q, format);
      assert.ok(small.byteLength < large.length * 0.8, `${small.byteLength} vs ${large.length}`);
      const df = polarsRead(Buffer.from(small), format);
      assert.equal(df.height, 100000);
      assert.equal(df.getColumn('n').sum(), 450000);
    });
  }
}

await step('LowCardinality as dictionary: deltas across record batches', async () => {
  await run('DROP TABLE IF EXISTS arrow_lc');
  await run('CREATE TABLE arrow_lc (k UInt32, a Array(LowCardinality(String)), ' +
    'n Array(LowCardinality(Nullable(String)))) ENGINE = MergeTree ORDER BY k');
  const lines = [];
  for (let k = 0; k < 150000; k++) {
    lines.push(JSON.stringify({ k, a: [`v${k % 100000}`, 'same'], n: [k % 3 ? `w${k % 5}` : null] }));
  }
  const r = await fetch(`${url}/?${new URLSearchParams({ query: 'INSERT INTO arrow_lc FORMAT JSONEachRow' })}`,
    { method: 'POST', body: lines.join('\n') });
  assert.equal(r.status, 200, await r.text());
  for (const format of ['ArrowStream', 'Arrow']) {
    const bytes = await arrowBytes('SELECT k, a, n FROM arrow_lc ORDER BY k', format,
      { output_format_arrow_low_cardinality_as_dictionary: 1 });
    const table = tableFromIPC(bytes);
    assert.equal(String(table.schema.fields[1].type), 'List<Dictionary<Int32, Utf8>>');
    assert.equal(table.schema.fields[2].type.children[0].nullable, true);
    assert.ok(table.batches.length > 1);
    assert.equal(table.numRows, 150000);
    const a = table.getChild('a');
    const n = table.getChild('n');
    for (const k of [0, 1, 65535, 65536, 99999, 100000, 131071, 149999]) {
      assert.deepEqual([...a.get(k)], [`v${k % 100000}`, 'same'], `a row ${k}`);
      assert.deepEqual([...n.get(k)], [k % 3 ? `w${k % 5}` : null], `n row ${k}`);
    }
    // nodejs-polars refuses delta dictionaries ("delta dictionary batches not
    // supported"), as with ClickHouse's output; one batch it reads.
    const one = await arrowBytes('SELECT k, a, n FROM arrow_lc WHERE k < 1000 ORDER BY k', format,
      { output_format_arrow_low_cardinality_as_dictionary: 1 });
    const df = polarsRead(one, format);
    assert.equal(polarsType(df, 'a'), 'List(DataType(Categorical))');
    assert.equal(df.height, 1000);
    const got = df.select(pl.col('a').cast(pl.List(pl.Utf8))).getColumn('a').toArray();
    const gotN = df.select(pl.col('n').cast(pl.List(pl.Utf8))).getColumn('n').toArray();
    for (const k of [0, 1, 2, 999]) {
      assert.deepEqual(got[k], [`v${k}`, 'same']);
      assert.deepEqual(gotN[k], [k % 3 ? `w${k % 5}` : null]);
    }
  }
});

await step('settings: string_as_string, fixed_string_as_fixed_byte_array, date_as_uint16, indexes', async () => {
  const q = 'SELECT s, fs, d, alc FROM arrow_types ORDER BY id';
  const types = async (settings) => tableFromIPC(await arrowBytes(q, 'ArrowStream', settings))
    .schema.fields.map((f) => String(f.type));
  assert.deepEqual(await types({}), ['Utf8', 'FixedSizeBinary[4]', 'Date32<DAY>', 'List<Utf8>']);
  assert.deepEqual(await types({ output_format_arrow_string_as_string: 0 }),
    ['Binary', 'FixedSizeBinary[4]', 'Date32<DAY>', 'List<Binary>']);
  assert.deepEqual(await types({ output_format_arrow_fixed_string_as_fixed_byte_array: 0 }),
    ['Utf8', 'Utf8', 'Date32<DAY>', 'List<Utf8>']);
  assert.deepEqual(await types({ output_format_arrow_date_as_uint16: 1 }),
    ['Utf8', 'FixedSizeBinary[4]', 'Uint16', 'List<Utf8>']);
  assert.deepEqual(await types({ output_format_arrow_low_cardinality_as_dictionary: 1,
    output_format_arrow_use_signed_indexes_for_dictionary: 0,
    output_format_arrow_use_64_bit_indexes_for_dictionary: 1 }),
  ['Utf8', 'FixedSizeBinary[4]', 'Date32<DAY>', 'List<Dictionary<Uint64, Utf8>>']);
  const t = tableFromIPC(await arrowBytes(q, 'Arrow', { output_format_arrow_string_as_string: 0,
    output_format_arrow_fixed_string_as_fixed_byte_array: 0, output_format_arrow_date_as_uint16: 1 }));
  assert.deepEqual(canon(t.getChild('s'), 1), hex(Buffer.from('héllo\t"q"\n\\')));
  assert.deepEqual(canon(t.getChild('fs'), 0), hex(Buffer.from('ab\0\0')));
  assert.equal(canon(t.getChild('d'), 1), '65535');
});

await step('types without an Arrow form fail before any output (UNKNOWN_TYPE)', async () => {
  for (const [query, settings, type] of [
    ['SELECT sumState(number) AS st FROM numbers(3)', {}, 'AggregateFunction(sum, UInt64)'],
    ['SELECT NULL AS x', { output_format_arrow_unsupported_types_as_binary: 0 }, 'Nothing'],
  ]) {
    for (const format of ['Arrow', 'ArrowStream']) {
      const r = await post(`${query} FORMAT ${format}`, settings);
      const text = await r.text();
      assert.equal(r.status, 404, text); // UNKNOWN_TYPE maps to 404 in ClickHouse
      assert.equal(r.headers.get('x-clickhouse-exception-code'), '50');
      assert.match(text, new RegExp(`^Code: 50\\. DB::Exception: The type '${type.replace(/[()]/g, '\\$&')}' ` +
        `of a column '(st|x)' is not supported for conversion into Arrow data format`));
    }
  }
  const r = await post('SELECT 1 FORMAT Arrow', { output_format_arrow_compression_method: 'snappy' });
  assert.equal(r.headers.get('x-clickhouse-exception-code'), '36');
  await r.text();
});

await run('DROP TABLE IF EXISTS arrow_types');
await run('DROP TABLE IF EXISTS arrow_lc');
console.log(`${passed} passed, ${failed} failed`);

"""ClickHouse's Native format as clickhouse-go v2 reads and writes it over
HTTP, written for tests/clients/grafana_test.py from clickhouse-compat.md
section 2.7 (and 2.6 for the per-value encodings).

Reading is strict: a block that ends early, a byte left over after the last
block, a BlockInfo other than ClickHouse's, a custom-serialization byte other
than 0, a Bool other than 0/1, a LowCardinality key version other than 1 or
flags without HasAdditionalKeys are all NativeError. Values come back as
Python values: integers for (U)Int*, Date (days), DateTime (seconds) and
DateTime64 (ticks); float; str for String (UTF-8) and Enum names; bytes for
FixedString and UUID; bool; None for NULL; list for Array; dict (in wire
order) for Map.
"""

import struct

REVISION_CUSTOM_SERIALIZATION = 54454  # the per-column custom-serialization byte
LC_KEY_VERSION = 1                     # SharedDictionariesWithAdditionalKeys
LC_NEED_GLOBAL_DICTIONARY = 1 << 8
LC_HAS_ADDITIONAL_KEYS = 1 << 9
LC_NEED_UPDATE_DICTIONARY = 1 << 10

_FIXED = {
    "UInt8": "<B", "UInt16": "<H", "UInt32": "<I", "UInt64": "<Q",
    "Int8": "<b", "Int16": "<h", "Int32": "<i", "Int64": "<q",
    "Float32": "<f", "Float64": "<d",
    "Date": "<H", "Date32": "<i", "DateTime": "<I", "DateTime64": "<q",
    "Enum8": "<b", "Enum16": "<h",
}


class NativeError(Exception):
    """The bytes are not what a strict Native reader accepts."""


# ---- type names ---------------------------------------------------------------

class CHType:
    """A parsed ClickHouse type name: `name` and its parenthesised `args`
    (CHType for nested types, int for numbers, str for quoted strings,
    (str, int) for Enum entries)."""

    def __init__(self, name, args=()):
        self.name = name
        self.args = list(args)

    def __repr__(self):
        return f"CHType({self.name!r}, {self.args!r})"


def _split_top(text):
    """Splits `text` on commas outside parentheses and quotes."""
    parts, depth, quote, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == "'":
                quote = False
        elif c == "'":
            quote = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    if quote or depth != 0:
        raise NativeError(f"unbalanced type arguments: {text!r}")
    parts.append(text[start:].strip())
    return parts


def _unquote(text):
    if len(text) < 2 or text[0] != "'" or text[-1] != "'":
        raise NativeError(f"not a quoted string: {text!r}")
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            i += 1
        out.append(body[i])
        i += 1
    return "".join(out)


def parse_type(text):
    text = text.strip()
    p = text.find("(")
    if p < 0:
        if not text.replace("_", "").isalnum():
            raise NativeError(f"bad type name {text!r}")
        return CHType(text)
    if not text.endswith(")"):
        raise NativeError(f"bad type name {text!r}")
    name, inner = text[:p], text[p + 1:-1]
    args = []
    for part in _split_top(inner):
        if part.startswith("'") and name in ("Enum8", "Enum16"):
            label, _, value = part.rpartition("=")
            args.append((_unquote(label.strip()), int(value)))
        elif part.startswith("'"):
            args.append(_unquote(part))
        elif part.lstrip("-").isdigit():
            args.append(int(part))
        else:
            args.append(parse_type(part))
    return CHType(name, args)


# ---- reading ---------------------------------------------------------------------

class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def eof(self):
        return self.pos == len(self.data)

    def take(self, n, what):
        if n < 0 or self.pos + n > len(self.data):
            raise NativeError(f"{what}: needs {n} bytes at offset {self.pos}, "
                              f"{len(self.data) - self.pos} left")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def varint(self, what):
        value, shift = 0, 0
        for _ in range(10):
            b = self.take(1, what)[0]
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7
        raise NativeError(f"{what}: varint longer than 10 bytes at offset {self.pos}")

    def fixed(self, fmt, what):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))[0]

    def fixed_many(self, fmt, count, what):
        size = struct.calcsize(fmt)
        raw = self.take(size * count, what)
        return list(struct.unpack("<" + fmt[1:] * count, raw)) if count else []

    def string(self, what):
        return self.take(self.varint(what), what)

    def u8_bool(self, what):
        b = self.take(1, what)[0]
        if b > 1:
            raise NativeError(f"{what}: byte {b} is not a UInt8 bool")
        return b == 1


def _strip_nullable(t):
    return t.args[0] if t.name == "Nullable" else t


def _read_prefix(r, t, column):
    """State prefixes of the column's streams, before any data: one key
    version per LowCardinality inside t."""
    if t.name == "LowCardinality":
        v = r.fixed("<Q", f"{column}: LowCardinality key version")
        if v != LC_KEY_VERSION:
            raise NativeError(f"{column}: LowCardinality key version {v}, expected 1")
        _read_prefix(r, t.args[0], column)
    elif t.name in ("Array", "Nullable"):
        _read_prefix(r, t.args[0], column)
    elif t.name == "Map":
        _read_prefix(r, t.args[0], column)
        _read_prefix(r, t.args[1], column)


def _decimal_format(t):
    precision = t.args[0]
    return "<i" if precision <= 9 else "<q" if precision <= 18 else None


def _read_data(r, t, rows, column):
    what = f"{column} ({t.name}, {rows} rows)"
    name = t.name
    if name in _FIXED:
        values = r.fixed_many(_FIXED[name], rows, what)
        if name in ("Enum8", "Enum16"):
            labels = {v: k for k, v in t.args}
            for v in values:
                if v not in labels:
                    raise NativeError(f"{what}: {v} is not a value of the enum")
            return [labels[v] for v in values]
        return values
    if name == "Bool":
        return [r.u8_bool(what) for _ in range(rows)]
    if name == "String":
        return [r.string(what).decode("utf-8") for _ in range(rows)]
    if name == "FixedString":
        return [r.take(t.args[0], what) for _ in range(rows)]
    if name == "UUID":
        return [r.take(16, what) for _ in range(rows)]
    if name == "Nothing":
        r.take(rows, what)
        return [None] * rows
    if name == "Decimal":
        fmt = _decimal_format(t)
        if fmt is None:
            raise NativeError(f"{what}: Decimal wider than 64 bits is not read here")
        return r.fixed_many(fmt, rows, what)
    if name == "Nullable":
        nulls = [r.u8_bool(what + " null map") for _ in range(rows)]
        values = _read_data(r, t.args[0], rows, column)
        return [None if n else v for n, v in zip(nulls, values)]
    if name in ("Array", "Map"):
        offsets = r.fixed_many("<Q", rows, what + " offsets")
        last = 0
        for o in offsets:
            if o < last or o > 1 << 32:
                raise NativeError(f"{what}: offsets not ascending: {offsets}")
            last = o
        if name == "Array":
            flat = _read_data(r, t.args[0], last, column)
            return [flat[a:b] for a, b in zip([0] + offsets[:-1], offsets)]
        keys = _read_data(r, t.args[0], last, column)
        values = _read_data(r, t.args[1], last, column)
        return [dict(zip(keys[a:b], values[a:b])) for a, b in zip([0] + offsets[:-1], offsets)]
    if name == "LowCardinality":
        return _read_low_cardinality(r, t.args[0], rows, column)
    raise NativeError(f"{what}: type {name} is not read by this test")


def _read_low_cardinality(r, inner, rows, column):
    """One granule, as clickhouse-go reads it: flags, dictionary, indexes."""
    what = f"{column} (LowCardinality, {rows} rows)"
    flags = r.fixed("<Q", what + " flags")
    width = flags & 0xFF
    if width > 3 or flags & LC_NEED_GLOBAL_DICTIONARY or not flags & LC_HAS_ADDITIONAL_KEYS:
        raise NativeError(f"{what}: flags {flags:#x} (clickhouse-go needs an index width 0..3, "
                          "HasAdditionalKeys and no global dictionary)")
    if flags & ~(0xFF | LC_HAS_ADDITIONAL_KEYS | LC_NEED_UPDATE_DICTIONARY):
        raise NativeError(f"{what}: unknown flags {flags:#x}")
    dict_size = r.fixed("<Q", what + " dictionary size")
    dictionary = _read_data(r, _strip_nullable(inner), dict_size, column)
    index_rows = r.fixed("<Q", what + " index rows")
    if index_rows != rows:
        raise NativeError(f"{what}: granule of {index_rows} rows in a block of {rows}")
    indexes = r.fixed_many("<" + "BHIQ"[width], rows, what + " indexes")
    out = []
    for i in indexes:
        if i >= dict_size:
            raise NativeError(f"{what}: index {i} past a dictionary of {dict_size}")
        out.append(None if inner.name == "Nullable" and i == 0 else dictionary[i])
    return out


class Block:
    def __init__(self, names, types, columns, rows):
        self.names = names          # column names
        self.types = types          # type names as sent
        self.columns = columns      # per column, a list of values
        self.rows = rows

    def row_tuples(self):
        return [tuple(c[i] for c in self.columns) for i in range(self.rows)]


def read_block(r, revision):
    if revision > 0:
        info = r.take(8, "BlockInfo")
        # field 1: is_overflows (UInt8 bool), field 2: bucket_num (Int32), 0: end
        if info[0] != 1 or info[1] > 1 or info[2] != 2 or info[7] != 0:
            raise NativeError(f"BlockInfo {info.hex()} is not 01 <0|1> 02 <Int32> 00")
        if struct.unpack("<i", info[3:7])[0] != -1:
            raise NativeError(f"BlockInfo bucket_num {info[3:7].hex()}, expected -1")
    ncols = r.varint("column count")
    nrows = r.varint("row count")
    if nrows > 1_000_000_000:
        raise NativeError(f"{nrows} rows in one block")
    names, types, columns = [], [], []
    for i in range(ncols):
        name = r.string(f"column {i} name").decode("utf-8")
        type_name = r.string(f"column {name} type").decode("utf-8")
        if revision >= REVISION_CUSTOM_SERIALIZATION and r.u8_bool(f"{name} custom serialization"):
            raise NativeError(f"{name}: custom serialization (clickhouse-go refuses it)")
        t = parse_type(type_name)
        values = []
        if nrows > 0:
            _read_prefix(r, t, name)
            values = _read_data(r, t, nrows, name)
        names.append(name)
        types.append(type_name)
        columns.append(values)
    return Block(names, types, columns, nrows)


def read_blocks(data, revision):
    """Every block of a Native stream; the stream must end after the last."""
    r = Reader(data)
    blocks = []
    while not r.eof():
        start = r.pos
        try:
            blocks.append(read_block(r, revision))
        except NativeError as e:
            raise NativeError(f"block {len(blocks)} at offset {start}: {e}") from None
    return blocks


# ---- writing (INSERT bodies: revision 0, as clickhouse-go encodes them) -----------

def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _string(b):
    if isinstance(b, str):
        b = b.encode("utf-8")
    return _varint(len(b)) + b


def _write_prefix(t):
    if t.name == "LowCardinality":
        return struct.pack("<Q", LC_KEY_VERSION) + _write_prefix(t.args[0])
    if t.name in ("Array", "Nullable"):
        return _write_prefix(t.args[0])
    if t.name == "Map":
        return _write_prefix(t.args[0]) + _write_prefix(t.args[1])
    return b""


def _default(t):
    if t.name in ("String",):
        return ""
    if t.name == "Bool":
        return False
    if t.name in ("Float32", "Float64"):
        return 0.0
    if t.name in ("Array",):
        return []
    if t.name == "Map":
        return {}
    if t.name == "Nullable":
        return _default(t.args[0])
    return 0


def _write_data(t, values):
    name = t.name
    if name in _FIXED:  # Enum8/16: the values as integers
        return struct.pack("<" + _FIXED[name][1:] * len(values), *values)
    if name == "Bool":
        return bytes(1 if v else 0 for v in values)
    if name == "String":
        return b"".join(_string(v) for v in values)
    if name == "Nullable":
        nulls = bytes(1 if v is None else 0 for v in values)
        inner = [_default(t.args[0]) if v is None else v for v in values]
        return nulls + _write_data(t.args[0], inner)
    if name in ("Array", "Map"):
        offsets, total = [], 0
        for v in values:
            total += len(v)
            offsets.append(total)
        head = struct.pack("<" + "Q" * len(offsets), *offsets)
        if name == "Array":
            return head + _write_data(t.args[0], [x for v in values for x in v])
        keys = [k for v in values for k in v.keys()]
        vals = [x for v in values for x in v.values()]
        return head + _write_data(t.args[0], keys) + _write_data(t.args[1], vals)
    if name == "LowCardinality":
        # clickhouse-go: a dictionary that starts with the default value
        # (and NULL for Nullable), indexes as narrow as the dictionary allows,
        # flags HasAdditionalKeys | NeedUpdateDictionary | width.
        inner = t.args[0]
        dictionary = [_default(_strip_nullable(inner))]
        if inner.name == "Nullable":
            dictionary.append(_default(_strip_nullable(inner)))
        positions, indexes = {}, []
        for v in values:
            if v is None:
                indexes.append(0)
                continue
            if v not in positions:
                positions[v] = len(dictionary)
                dictionary.append(v)
            indexes.append(positions[v])
        width = 0 if len(dictionary) < 0xFF else 1 if len(dictionary) < 0xFFFF else 2
        flags = LC_HAS_ADDITIONAL_KEYS | LC_NEED_UPDATE_DICTIONARY | width
        return (struct.pack("<QQ", flags, len(dictionary)) +
                _write_data(_strip_nullable(inner), dictionary) +
                struct.pack("<Q", len(values)) +
                struct.pack("<" + "BHI"[width] * len(indexes), *indexes))
    raise NativeError(f"type {name} is not written by this test")


def write_block(names, type_names, columns):
    """One revision-0 block (no BlockInfo, no custom-serialization byte)."""
    rows = len(columns[0]) if columns else 0
    out = bytearray(_varint(len(names)) + _varint(rows))
    for name, type_name, values in zip(names, type_names, columns):
        if len(values) != rows:
            raise NativeError(f"column {name}: {len(values)} values in a block of {rows}")
        t = parse_type(type_name)
        out += _string(name) + _string(type_name)
        if rows:
            out += _write_prefix(t) + _write_data(t, values)
    return bytes(out)

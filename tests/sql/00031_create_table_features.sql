-- differential: skip CODEC, COMMENT on tables, skip indexes (minmax/set/bloom_filter/tokenbf_v1) and TTL are newer than ClickHouse 18.16
-- CREATE TABLE with codecs, comments, skip indexes, TTL and settings.
CREATE TABLE c (k UInt64 CODEC(Delta, LZ4), v String CODEC(ZSTD(3)), f Float64 CODEC(Gorilla), d DateTime('UTC') CODEC(DoubleDelta, LZ4), n UInt32 CODEC(NONE)) ENGINE = MergeTree ORDER BY k;
INSERT INTO c SELECT number, toString(number), number / 3, toDateTime('2020-01-01 00:00:00', 'UTC') + number * 60, number FROM numbers(100);
SELECT count(), sum(k), max(v), round(sum(f), 3), max(d), sum(n) FROM c;
SELECT name, compression_codec FROM system.columns WHERE database = currentDatabase() AND table = 'c' AND name IN ('v', 'n') ORDER BY name;
CREATE TABLE cm (k UInt32 COMMENT 'the key', v String COMMENT 'a value') ENGINE = MergeTree ORDER BY k COMMENT 'table comment';
SELECT name, comment FROM system.columns WHERE database = currentDatabase() AND table = 'cm' ORDER BY name;
SELECT comment FROM system.tables WHERE database = currentDatabase() AND name = 'cm';
CREATE TABLE ix (k UInt64, s String, u UInt32, INDEX i_mm u TYPE minmax GRANULARITY 1, INDEX i_set s TYPE set(100) GRANULARITY 2, INDEX i_bf s TYPE bloom_filter GRANULARITY 1, INDEX i_tok s TYPE tokenbf_v1(256, 2, 0) GRANULARITY 1) ENGINE = MergeTree ORDER BY k SETTINGS index_granularity = 64;
INSERT INTO ix SELECT number, concat('word', toString(number % 50), ' other'), number * 3 FROM numbers(1000);
SELECT count() FROM ix WHERE u BETWEEN 300 AND 330;
SELECT count() FROM ix WHERE s = 'word7 other';
SELECT count() FROM ix WHERE s LIKE '%word49 %';
SELECT name, type, expr, granularity FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'ix' ORDER BY name;
CREATE TABLE tt (d DateTime('UTC'), k UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY k TTL d + INTERVAL 50 YEAR SETTINGS index_granularity = 8192, merge_with_ttl_timeout = 3600;
INSERT INTO tt VALUES ('2020-01-01 00:00:00', 1), ('2020-02-01 00:00:00', 2);
SELECT d, k FROM tt ORDER BY k;
CREATE TABLE ct (d Date, k UInt32, v UInt32 TTL d + INTERVAL 50 YEAR) ENGINE = MergeTree ORDER BY k; -- { muscles todo: column TTL is not supported yet }
INSERT INTO ct VALUES ('2020-01-01', 1, 10); -- { muscles todo: column TTL is not supported yet }
SELECT d, k, v FROM ct; -- { muscles todo: column TTL is not supported yet }
CREATE TABLE bad (k UInt32 CODEC(NoSuchCodec)) ENGINE = MergeTree ORDER BY k; -- { serverError UNKNOWN_CODEC }
CREATE TABLE bad (k UInt32, INDEX i k TYPE nosuch GRANULARITY 1) ENGINE = MergeTree ORDER BY k; -- { serverError INCORRECT_QUERY }

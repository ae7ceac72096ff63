-- Hash functions: sipHash64 and xxHash64 (values are fixed by their algorithms).
SELECT sipHash64('');
SELECT sipHash64('a'), sipHash64('abc'), sipHash64('hello world');
SELECT toTypeName(sipHash64('a')), sipHash64('a') = sipHash64('a'), sipHash64('a') != sipHash64('b');
SELECT sipHash64(1), sipHash64(toUInt64(1)), sipHash64('a', 'b');
SELECT number, sipHash64(toString(number)) FROM numbers(3) ORDER BY number;
SELECT sipHash64('日本語');
SELECT count(DISTINCT sipHash64(number)) FROM numbers(1000);
SELECT xxHash64(''), xxHash64('a'), xxHash64('abc'); -- { differential skip: xxHash64 is newer than 18.16 }
SELECT xxHash64('hello world'), toTypeName(xxHash64('a')); -- { differential skip: xxHash64 is newer than 18.16 }
SELECT number, xxHash64(toString(number)) FROM numbers(3) ORDER BY number; -- { differential skip: xxHash64 is newer than 18.16 }
SELECT cityHash64('a'), intHash64(1), intHash32(1);

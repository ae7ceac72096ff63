-- Pattern matching: LIKE, ILIKE, match, extract, replace*, splitByChar.
SELECT 'hello' LIKE 'h%', 'hello' LIKE '%l_o', 'hello' LIKE 'H%', 'hello' NOT LIKE '%z%';
SELECT like('abc', 'a_c'), notLike('abc', 'a_c'), 'a%b' LIKE 'a\\%b', 'axb' LIKE 'a\\%b', '' LIKE '%';
SELECT 'Hello' ILIKE 'h%', 'HELLO' ILIKE '%ll%', 'abc' NOT ILIKE 'A%'; -- { differential skip: ILIKE is newer than 18.16 }
SELECT ilike('ABC', 'a_c'); -- { differential skip: ILIKE is newer than 18.16 }
SELECT match('hello', 'l+'), match('hello', '^h.*o$'), match('hello', '^e'), match('', '');
SELECT extract('key=value; k2=v2', 'k2=(\\w+)'), extract('abc123def', '\\d+'), extract('abc', '\\d+');
SELECT extractAll('a1b22c333', '\\d+');
SELECT replaceAll('hello world', 'o', '0'), replaceOne('hello world', 'o', '0'), replaceAll('aaa', 'a', '');
SELECT replace('abcabc', 'b', 'B');
SELECT replaceRegexpAll('hello world', '[aeiou]', '_'), replaceRegexpOne('hello world', '[aeiou]', '_');
SELECT replaceRegexpAll('2020-01-02', '(\\d+)-(\\d+)-(\\d+)', '\\3/\\2/\\1'), replaceRegexpAll('abc', '^', '>');
SELECT splitByChar(',', 'a,b,,c'), splitByChar(',', ''), splitByChar(',', 'abc');
SELECT splitByString('::', 'a::b::c'), arrayStringConcat(splitByChar('-', '1-2-3'), '+');
SELECT number, concat('item_', toString(number)) AS s FROM numbers(12) WHERE s LIKE 'item_1%' ORDER BY number;
SELECT countMatches('abababa', 'aba'), countSubstrings('abababa', 'aba'); -- { differential skip: countMatches/countSubstrings are newer than 18.16 }
SELECT multiSearchAny('hello', ['x', 'ell']), multiSearchFirstPosition('hello', ['l', 'o']); -- { differential skip: multiSearch* are newer than 18.16 }
SELECT match('a', '('); -- { serverError CANNOT_COMPILE_REGEXP }
SELECT match(1, 'a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }

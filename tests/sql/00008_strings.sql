-- String functions: length, case, substring, concat, position, trim, padding.
SELECT length('hello'), length(''), length('héllo'), lengthUTF8('héllo'), char_length('abc');
SELECT lower('HeLLo'), upper('HeLLo'), lower('ÀÉ'), lowerUTF8('ÀÉ'), upperUTF8('àé');
SELECT substring('hello', 2), substring('hello', 2, 3), substring('hello', -3), substring('hello', 0), substring('hello', 10);
SELECT substr('hello', 1, 1), mid('hello', 2, 2), substring('hello', -3, 2), substringUTF8('héllo', 2, 2);
SELECT concat('a', 'b'), concat('a', 'b', 'c', ''), concat('', ''), 'a' || 'b' || 'c';
SELECT concat('x', toString(1)), concat(toString(1.5), '-', toString(NULL));
SELECT concat('n', 1, 2.5); -- { differential skip: 18.16 concat takes only String arguments }
SELECT position('hello', 'l'), position('hello', 'z'), position('hello', ''), position('', 'a');
SELECT position('hello', 'l', 4), position('hello', 'l', 10); -- { differential skip: position(haystack, needle, start_pos) is newer than 18.16 }
SELECT locate('lo', 'hello'), locate('hello', 'lo'); -- { differential skip: locate takes (needle, haystack) since 24.3; in 18.16 it is position }
SELECT positionCaseInsensitive('HeLLo', 'll'), positionUTF8('héllo', 'l');
SELECT startsWith('hello', 'he'), startsWith('hello', 'lo'), endsWith('hello', 'lo'), endsWith('hello', ''), startsWith('', '');
SELECT trim('  a b  '), trimLeft('  a  '), trimRight('  a  '), trimBoth('  b  '); -- { differential skip: 18.16 has no trim functions }
SELECT concat('[', trim('   x  '), ']'), trim(''), trim('   '); -- { differential skip: 18.16 has no trim functions }
SELECT reverse('abc'), reverse('');
SELECT repeat('ab', 3), repeat('x', 0); -- { differential skip: repeat is newer than 18.16 }
SELECT empty(''), empty('a'), notEmpty(''), notEmpty('a');
SELECT toString(123), toString('s'), toString(toDate('2021-03-04'));
SELECT leftPad('7', 3, '0'), rightPad('7', 3, '*'); -- { differential skip: leftPad/rightPad are newer than 18.16 }
SELECT left('hello', 2), right('hello', 3); -- { differential skip: left/right are newer than 18.16 }
SELECT appendTrailingCharIfAbsent('a', '/'), appendTrailingCharIfAbsent('a/', '/');
SELECT format('{} + {} = {}', '1', '2', '3'); -- { differential skip: format is newer than 18.16 }
SELECT number, concat('row', toString(number)) AS s, length(s), upper(s) FROM numbers(3) ORDER BY number;
SELECT length('日本語'), lengthUTF8('日本語'), reverseUTF8('日本語'), substringUTF8('日本語', 2, 1);
SELECT 'a\nb', 'tab\tx', 'quote\'s', 'back\\slash', 'nul\0x';
SELECT length('a\0b'), 'a\0b' = 'a';
SELECT length(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT substring('a'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT lower('a', 'b'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }

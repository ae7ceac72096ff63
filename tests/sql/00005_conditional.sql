-- CASE, if, multiIf and the ternary operator.
SELECT if(1, 'yes', 'no'), if(0, 'yes', 'no');
SELECT if(NULL, 'yes', 'no'), if(toNullable(0), 1, 2); -- { differential skip: 18.16 returns NULL for a NULL condition; now NULL counts as false }
SELECT if(1 > 2, 1, 2.5), toTypeName(if(1 > 2, 1, 2.5));
SELECT if(number % 2 = 0, 'even', 'odd') FROM numbers(4) ORDER BY number;
SELECT number, if(number > 1, number, NULL) AS v, toTypeName(v) FROM numbers(3) ORDER BY number;
SELECT 1 ? 'a' : 'b', 0 ? 'a' : 'b';
SELECT multiIf(1 = 2, 'a', 2 = 2, 'b', 'c'), multiIf(0, 1, 0, 2, 3);
SELECT number, multiIf(number < 2, 'small', number < 4, 'medium', 'large') FROM numbers(6) ORDER BY number;
SELECT CASE WHEN 1 = 1 THEN 'one' ELSE 'other' END;
SELECT CASE WHEN 1 = 2 THEN 'one' END;
SELECT number, CASE WHEN number = 0 THEN 'zero' WHEN number = 1 THEN 'one' ELSE 'many' END FROM numbers(3) ORDER BY number;
SELECT number, CASE number WHEN 0 THEN 'zero' WHEN 2 THEN 'two' ELSE 'other' END FROM numbers(4) ORDER BY number;
SELECT number, CASE number % 3 WHEN 0 THEN 10 WHEN 1 THEN 20 END FROM numbers(4) ORDER BY number; -- { differential skip: 18.16 returns NULL for every row of CASE x WHEN ... without ELSE }
SELECT toTypeName(CASE WHEN 1 THEN 1 ELSE 2 END), toTypeName(CASE WHEN 1 THEN 1 END);
SELECT if(number = 1, toInt64(number), -1) FROM numbers(3) ORDER BY number;
SELECT sum(if(number % 2 = 0, number, 0)), sum(multiIf(number < 5, 1, 0)) FROM numbers(10);
SELECT if(1, 2); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT if(1, 'a', 2); -- { serverError NO_COMMON_TYPE } -- { differential skip: 18.16 folds the constant condition and returns 'a' }

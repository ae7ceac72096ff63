-- ORDER BY ... LIMIT over many rows (the top-N path) gives what a full sort gives.
SELECT number % 1000 AS x, number FROM numbers(100000) ORDER BY x DESC, number LIMIT 5;
SELECT number % 7 AS x, number FROM numbers(100000) ORDER BY x, number DESC LIMIT 3 OFFSET 2;
SELECT toString(number % 97) AS s, count() FROM numbers(100000) GROUP BY s ORDER BY s LIMIT 4;
SELECT number FROM numbers(100000) ORDER BY sipHash64(number) LIMIT 3;
SELECT sum(x) FROM (SELECT number AS x FROM numbers(100000) ORDER BY x DESC LIMIT 1000);

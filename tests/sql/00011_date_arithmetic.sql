-- INTERVAL arithmetic, add*/subtract*, dateDiff, date_add, formatDateTime, parseDateTimeBestEffort.
SELECT toDate('2020-01-31') + INTERVAL 1 DAY, toDate('2020-01-31') + INTERVAL 1 MONTH, toDate('2020-01-31') - INTERVAL 1 YEAR;
SELECT toDateTime('2020-01-01 00:00:00', 'UTC') + INTERVAL 90 MINUTE, toDateTime('2020-01-01 00:00:00', 'UTC') - INTERVAL 1 SECOND;
SELECT toDateTime('2020-03-31 10:00:00', 'UTC') + INTERVAL 1 MONTH, toDateTime('2020-02-29 10:00:00', 'UTC') + INTERVAL 1 YEAR;
SELECT toDate('2020-05-06') + INTERVAL 2 WEEK, toDate('2020-05-06') - INTERVAL 3 WEEK;
SELECT toDate('2020-05-06') + INTERVAL 1 QUARTER; -- { differential skip: INTERVAL QUARTER is newer than 18.16 }
SELECT toDateTime('2020-01-01 00:00:00', 'UTC') + INTERVAL 1 HOUR + INTERVAL 30 MINUTE;
SELECT addHours(toDateTime('2020-01-01 22:00:00', 'UTC'), 5), addMinutes(toDateTime('2020-01-01 00:00:00', 'UTC'), -1), addSeconds(toDateTime('2020-01-01 00:00:00', 'UTC'), 61);
SELECT addDays(toDate('2020-02-28'), 2), addWeeks(toDate('2020-01-01'), 1), addMonths(toDate('2020-01-31'), 1), addYears(toDate('2020-02-29'), 1);
SELECT addQuarters(toDate('2020-01-01'), 2); -- { differential skip: addQuarters is newer than 18.16 }
SELECT subtractDays(toDate('2020-03-01'), 1), subtractHours(toDateTime('2020-01-01 00:00:00', 'UTC'), 1), subtractMonths(toDate('2020-03-31'), 1);
SELECT toTypeName(addHours(toDate('2020-01-01'), 1)), addHours(toDate('2020-01-01'), 1);
SELECT dateDiff('day', toDate('2020-01-01'), toDate('2020-03-01')), dateDiff('month', toDate('2020-01-31'), toDate('2020-02-01')), dateDiff('year', toDate('2019-12-31'), toDate('2020-01-01'));
SELECT dateDiff('hour', toDateTime('2020-01-01 00:00:00', 'UTC'), toDateTime('2020-01-02 01:30:00', 'UTC')), dateDiff('minute', toDateTime('2020-01-01 00:00:00', 'UTC'), toDateTime('2020-01-01 00:10:59', 'UTC')), dateDiff('second', toDateTime('2020-01-01 00:00:00', 'UTC'), toDateTime('2020-01-01 00:00:10', 'UTC'));
SELECT dateDiff('week', toDate('2020-01-01'), toDate('2020-01-20')), dateDiff('quarter', toDate('2020-01-01'), toDate('2020-12-31')), dateDiff('day', toDate('2020-03-01'), toDate('2020-01-01'));
SELECT date_add(DAY, 3, toDate('2020-01-30')), date_sub(MONTH, 1, toDate('2020-03-31')), date_diff('day', toDate('2020-01-01'), toDate('2020-01-11')); -- { differential skip: date_add/date_sub/date_diff are newer than 18.16 }
SELECT DATE_ADD(toDateTime('2020-01-01 00:00:00', 'UTC'), INTERVAL 2 HOUR); -- { differential skip: date_add is newer than 18.16 }
SELECT formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%Y-%m-%d %H:%S'), formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%F %T'), formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%R');
SELECT formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%Y-%m-%d %H:%i:%S'), formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%M %b'); -- { differential skip: %M is the month name since 23.4 (minutes are %i, which 18.16 lacks) }
SELECT formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%d/%m/%y'), formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%j %u %p %%');
SELECT formatDateTime(toDateTime('2020-05-06 07:08:09', 'UTC'), '%Y%m%d', 'Asia/Tokyo'), formatDateTime(toDateTime('2020-05-06 23:08:09', 'UTC'), '%H', 'Asia/Tokyo');
SELECT formatDateTime(toDate('2020-05-06'), '%Y/%m/%d');
SELECT parseDateTimeBestEffort('2020-05-06 07:08:09', 'UTC'), parseDateTimeBestEffort('2020-05-06T07:08:09Z', 'UTC'), parseDateTimeBestEffort('2020-05-06T07:08:09+02:00', 'UTC');
SELECT parseDateTimeBestEffort('23/10/2020 12:12:57', 'UTC'), parseDateTimeBestEffort('6 May 2020 07:08:09', 'UTC');
SELECT parseDateTimeBestEffort('1588748889', 'UTC'); -- { differential skip: 18.16 does not read a 10-digit string as a Unix timestamp }
SELECT parseDateTimeBestEffortOrNull('not a date'), parseDateTimeBestEffortOrNull('2020-05-06 07:08:09', 'UTC');
SELECT parseDateTimeBestEffortOrZero('nope', 'UTC'); -- { differential skip: 18.16 prints the zero DateTime as 0000-00-00 00:00:00 }
SELECT fromUnixTimestamp(1588748889), FROM_UNIXTIME(0); -- { differential skip: fromUnixTimestamp is newer than 18.16 }
SELECT fromUnixTimestamp(1588748889, '%Y-%m-%d', 'UTC'); -- { differential skip: fromUnixTimestamp is newer than 18.16 }
SELECT number, toDateTime('2020-01-01 00:00:00', 'UTC') + INTERVAL number HOUR AS t, toHour(t) FROM numbers(3) ORDER BY number;
SELECT toDate('2020-01-01') + INTERVAL number MONTH AS d FROM numbers(4) ORDER BY d;
SELECT dateDiff('fortnight', toDate('2020-01-01'), toDate('2020-02-01')); -- { serverError BAD_ARGUMENTS }
SELECT parseDateTimeBestEffort('nonsense'); -- { serverError CANNOT_PARSE_DATETIME }

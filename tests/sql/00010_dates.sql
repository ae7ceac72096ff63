-- Date and DateTime construction, parts, toStartOf*, with explicit time zones.
SELECT toDate('2020-05-06'), toDate('2021-12-31'), toTypeName(toDate('2020-05-06'));
SELECT toDateTime('2020-05-06 07:08:09', 'UTC'), toTypeName(toDateTime('2020-05-06 07:08:09', 'UTC'));
SELECT toDateTime('2020-05-06 07:08:09', 'Asia/Tokyo'), toUnixTimestamp(toDateTime('2020-05-06 07:08:09', 'Asia/Tokyo'));
SELECT toDateTime(1588748889, 'UTC'), toDateTime(1588748889, 'America/New_York'), toDateTime(1, 'UTC');
SELECT toDate(toDateTime('2020-05-06 23:30:00', 'UTC')), toDate(toDateTime(1588807800, 'Asia/Tokyo'));
SELECT toDate(18388), toDate(toDateTime('2020-05-06 01:00:00', 'UTC'), 'America/Los_Angeles');
SELECT toUnixTimestamp(toDateTime('2020-05-06 07:08:09', 'UTC')), toUnixTimestamp('2020-05-06 07:08:09', 'UTC'), toUnixTimestamp('2020-05-06 07:08:09', 'Europe/Berlin');
SELECT toYear(toDate('2020-05-06')), toQuarter(toDate('2020-05-06')), toMonth(toDate('2020-05-06')), toDayOfMonth(toDate('2020-05-06'));
SELECT toDayOfWeek(toDate('2020-05-06')), toDayOfWeek(toDate('2020-05-10')), toDayOfYear(toDate('2020-12-31')), toDayOfYear(toDate('2021-12-31'));
SELECT toHour(toDateTime('2020-05-06 07:08:09', 'UTC')), toMinute(toDateTime('2020-05-06 07:08:09', 'UTC')), toSecond(toDateTime('2020-05-06 07:08:09', 'UTC'));
SELECT toHour(toDateTime(1588748889, 'Asia/Kolkata')), toMinute(toDateTime(1588748889, 'Asia/Kolkata'));
SELECT toYYYYMM(toDate('2020-05-06')), toYYYYMMDD(toDate('2020-05-06')), toYYYYMMDDhhmmss(toDateTime('2020-05-06 07:08:09', 'UTC'));
SELECT toTypeName(toYYYYMM(toDate('2020-05-06'))), toTypeName(toYear(toDate('2020-05-06'))), toTypeName(toHour(toDateTime(0, 'UTC')));
SELECT toStartOfYear(toDate('2020-05-06')), toStartOfQuarter(toDate('2020-05-06')), toStartOfMonth(toDate('2020-05-06')), toMonday(toDate('2020-05-06'));
SELECT toStartOfDay(toDateTime('2020-05-06 07:08:09', 'UTC')), toStartOfHour(toDateTime('2020-05-06 07:08:09', 'UTC')), toStartOfMinute(toDateTime('2020-05-06 07:08:09', 'UTC'));
SELECT toStartOfFiveMinute(toDateTime('2020-05-06 07:08:09', 'UTC')), toStartOfFifteenMinutes(toDateTime('2020-05-06 07:23:09', 'UTC'));
SELECT toStartOfDay(toDateTime('2020-05-06 07:08:09', 'Asia/Tokyo')), toStartOfMonth(toDateTime('2020-05-31 23:00:00', 'UTC'));
SELECT toStartOfWeek(toDate('2020-05-06')), toStartOfWeek(toDate('2020-05-06'), 1); -- { differential skip: toStartOfWeek is newer than 18.16 }
SELECT toStartOfInterval(toDateTime('2020-05-06 07:08:09', 'UTC'), INTERVAL 15 MINUTE), toStartOfInterval(toDateTime('2020-05-06 07:08:09', 'UTC'), INTERVAL 2 HOUR); -- { differential skip: toStartOfInterval is newer than 18.16 }
SELECT toStartOfInterval(toDate('2020-05-06'), INTERVAL 1 MONTH), toStartOfInterval(toDateTime('2020-05-06 07:08:09', 'UTC'), INTERVAL 10 SECOND); -- { differential skip: toStartOfInterval is newer than 18.16 }
SELECT toTimeZone(toDateTime('2020-05-06 07:08:09', 'UTC'), 'Asia/Tokyo'), toTypeName(toTimeZone(toDateTime(0, 'UTC'), 'Asia/Tokyo'));
SELECT toDateTime64('2020-05-06 07:08:09.123', 3, 'UTC'), toTypeName(toDateTime64('2020-05-06 07:08:09', 3, 'UTC')); -- { differential skip: DateTime64 is newer than 18.16 }
SELECT toDateTime64('2020-05-06 07:08:09.123456', 6, 'UTC'), toUnixTimestamp64Milli(toDateTime64('2020-05-06 07:08:09.123', 3, 'UTC')); -- { differential skip: DateTime64 is newer than 18.16 }
SELECT toDate('2020-02-29'), toDate('2019-02-28') + 1, toDate('2020-02-28') + 1;
SELECT toDate('2020-05-06') - toDate('2020-01-01'), toDateTime('2020-01-01 00:01:00', 'UTC') - toDateTime('2020-01-01 00:00:00', 'UTC');
SELECT toDateTime('2020-05-06 07:08:09', 'UTC') + 3600, toDate('2020-05-06') - 6;
SELECT number, toDate('2020-01-30') + number * 15 AS d, toYYYYMM(d), toDayOfWeek(d) FROM numbers(5) ORDER BY number;
SELECT toDateTime('2020-01-01 00:00:00', 'No/Such_Zone'); -- { serverError BAD_ARGUMENTS } -- { differential skip: 18.16 reports a Poco exception (1000) }
SELECT toYear('2020-01-01'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }

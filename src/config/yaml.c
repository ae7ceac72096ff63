/* yaml.c: reads muscles.yaml into cfg_settings with libyaml's event parser.
 * The accepted shape is one document whose root is a mapping of sections,
 * each a mapping of setting names to scalars. Anything else is MU_ECONFIG
 * naming the file and line: unknown sections or settings (listing the known
 * ones), duplicates, sequences, aliases, a second document, syntax errors
 * (line and column). An empty value (`http:` or a file of comments) means
 * "nothing set here". No recursion: the shape is two levels deep and each
 * level has its own function; the file is read whole and capped at
 * CFG__FILE_MAX_BYTES, which bounds every loop over its events.
 */
#include "config/config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

/* Room for a quoted name or value in a message; longer ones are truncated. */
#define CFG__QUOTED_BYTES 96

typedef struct cfg__reader {
    yaml_parser_t parser;
    const char *path;
    const char *data; /* the whole file, NUL-terminated */
    size_t data_bytes;
    cfg_settings *out;
    size_t section_line[CFG__SETTING_COUNT]; /* 1-based line; 0: not seen yet */
    size_t setting_line[CFG__SETTING_COUNT];
} cfg__reader;

static size_t cfg__line(const yaml_event_t *ev)
{
    return ev->start_mark.line + 1; /* libyaml counts from 0 */
}

static const char *cfg__scalar(const yaml_event_t *ev)
{
    return (const char *)ev->data.scalar.value;
}

/* An empty plain scalar, as in "http:" with nothing after it. */
static bool cfg__event_is_empty(const yaml_event_t *ev)
{
    return ev->type == YAML_SCALAR_EVENT && ev->data.scalar.length == 0 &&
           ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* The 1-based line holding byte `offset` of the file. */
static size_t cfg__line_at(const cfg__reader *r, size_t offset)
{
    size_t line = 1;
    for (size_t i = 0; i < offset && i < r->data_bytes; i++) {
        line += r->data[i] == '\n';
    }
    return line;
}

static int cfg__syntax_error(cfg__reader *r, mu_err *err)
{
    const yaml_parser_t *p = &r->parser;
    const char *problem = p->problem != NULL ? p->problem : "unknown error";
    if (p->error == YAML_MEMORY_ERROR) {
        return MU_ERR(err, MU_ENOMEM, "config file %s: out of memory while parsing", r->path);
    }
    if (p->error == YAML_READER_ERROR) {
        return MU_ERR(err, MU_ECONFIG, "config file %s:%zu: cannot decode byte %zu: %s",
                      r->path, cfg__line_at(r, p->problem_offset), p->problem_offset, problem);
    }
    size_t at = p->problem_mark.index;
    const char *hint = at < r->data_bytes && r->data[at] == '\t'
                           ? "; YAML does not allow tabs for indentation"
                           : "";
    size_t line = p->problem_mark.line + 1;
    size_t column = p->problem_mark.column + 1;
    if (p->context != NULL) {
        return MU_ERR(err, MU_ECONFIG,
                      "config file %s:%zu:%zu: YAML syntax error: %s (%s at line %zu)%s",
                      r->path, line, column, problem, p->context, p->context_mark.line + 1,
                      hint);
    }
    return MU_ERR(err, MU_ECONFIG, "config file %s:%zu:%zu: YAML syntax error: %s%s", r->path,
                  line, column, problem, hint);
}

/* The next event; on failure *ev is zeroed, so deleting it is harmless. */
static int cfg__next(cfg__reader *r, yaml_event_t *ev, mu_err *err)
{
    if (!yaml_parser_parse(&r->parser, ev)) {
        return cfg__syntax_error(r, err);
    }
    return 0;
}

/* "<expected>, found a sequence" at the line of ev. */
static int cfg__shape_error(cfg__reader *r, const yaml_event_t *ev, const char *expected,
                            mu_err *err)
{
    char found[CFG__QUOTED_BYTES + 16];
    if (ev->type == YAML_SCALAR_EVENT) {
        char quoted[CFG__QUOTED_BYTES];
        mu_log_quote(cfg__scalar(ev), quoted, sizeof quoted);
        snprintf(found, sizeof found, "the scalar %s", quoted);
    } else {
        snprintf(found, sizeof found, "%s",
                 ev->type == YAML_SEQUENCE_START_EVENT ? "a sequence"
                 : ev->type == YAML_MAPPING_START_EVENT
                     ? "a mapping"
                     : ev->type == YAML_ALIAS_EVENT ? "an alias (aliases are not supported)"
                                                    : "an unexpected YAML event");
    }
    return MU_ERR(err, MU_ECONFIG, "config file %s:%zu: %s, found %s", r->path, cfg__line(ev),
                  expected, found);
}

/* Reads the value of one setting whose name (key) was just read. */
static int cfg__yaml_setting(cfg__reader *r, size_t section_index, const yaml_event_t *key,
                             mu_err *err)
{
    const char *section = cfg__section_at(section_index);
    char text[CFG__QUOTED_BYTES];
    if (key->type != YAML_SCALAR_EVENT) {
        snprintf(text, sizeof text, "a setting name of section %s must be a scalar", section);
        return cfg__shape_error(r, key, text, err);
    }
    const char *name = cfg__scalar(key);
    char dotted[2 * CFG__ENV_NAME_BYTES];
    int n = snprintf(dotted, sizeof dotted, "%s.%s", section, name);
    const cfg_setting_info *info = NULL;
    if (n > 0 && (size_t)n < sizeof dotted && strlen(name) == key->data.scalar.length) {
        info = cfg_setting_find(dotted);
    }
    if (info == NULL || strcmp(info->section, section) != 0) {
        char known[256];
        cfg__section_keys(section_index, known, sizeof known);
        mu_log_quote(dotted, text, sizeof text);
        return MU_ERR(err, MU_ECONFIG, "config file %s:%zu: unknown setting %s; known "
                      "settings of section %s: %s", r->path, cfg__line(key), text, section,
                      known);
    }
    size_t index = cfg__index_of(info);
    if (r->setting_line[index] != 0) {
        return MU_ERR(err, MU_ECONFIG, "config file %s:%zu: duplicate setting %s (first at "
                      "line %zu)", r->path, cfg__line(key), info->key, r->setting_line[index]);
    }
    r->setting_line[index] = cfg__line(key);
    yaml_event_t value;
    int rc = cfg__next(r, &value, err);
    if (rc == 0 && value.type == YAML_SCALAR_EVENT) {
        char origin[CFG__ORIGIN_BYTES];
        snprintf(origin, sizeof origin, "%s:%zu", r->path, cfg__line(&value));
        rc = cfg__value_set(info, cfg__scalar(&value), value.data.scalar.length, origin,
                            cfg__field(r->out, index), err);
    } else if (rc == 0) {
        snprintf(text, sizeof text, "setting %s expects a single value", info->key);
        rc = cfg__shape_error(r, &value, text, err);
    }
    yaml_event_delete(&value);
    return rc;
}

/* Reads the settings of one section until the end of its mapping. */
static int cfg__yaml_settings(cfg__reader *r, size_t section_index, mu_err *err)
{
    for (;;) {
        yaml_event_t key;
        int rc = cfg__next(r, &key, err);
        if (rc == 0 && key.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&key);
            return 0;
        }
        if (rc == 0) {
            rc = cfg__yaml_setting(r, section_index, &key, err);
        }
        yaml_event_delete(&key);
        if (rc != 0) {
            return rc;
        }
    }
}

/* Reads one section whose name (key) was just read, and its mapping. */
static int cfg__yaml_section(cfg__reader *r, const yaml_event_t *key, mu_err *err)
{
    char text[CFG__QUOTED_BYTES + 64];
    if (key->type != YAML_SCALAR_EVENT) {
        return cfg__shape_error(r, key, "a section name must be a scalar", err);
    }
    size_t line = cfg__line(key);
    size_t s = cfg__section_find(cfg__scalar(key), key->data.scalar.length);
    if (s == SIZE_MAX) {
        char known[256];
        cfg__section_list(known, sizeof known);
        mu_log_quote(cfg__scalar(key), text, CFG__QUOTED_BYTES);
        return MU_ERR(err, MU_ECONFIG, "config file %s:%zu: unknown section %s; known "
                      "sections: %s", r->path, line, text, known);
    }
    if (r->section_line[s] != 0) {
        return MU_ERR(err, MU_ECONFIG, "config file %s:%zu: duplicate section %s (first at "
                      "line %zu)", r->path, line, cfg__section_at(s), r->section_line[s]);
    }
    r->section_line[s] = line;
    yaml_event_t value;
    int rc = cfg__next(r, &value, err);
    if (rc == 0 && value.type == YAML_MAPPING_START_EVENT) {
        rc = cfg__yaml_settings(r, s, err);
    } else if (rc == 0 && !cfg__event_is_empty(&value)) {
        snprintf(text, sizeof text, "section %s must be a mapping of settings",
                 cfg__section_at(s));
        rc = cfg__shape_error(r, &value, text, err);
    }
    yaml_event_delete(&value);
    return rc;
}

/* Reads the root node of a document and the document's end. */
static int cfg__yaml_document(cfg__reader *r, mu_err *err)
{
    yaml_event_t ev;
    int rc = cfg__next(r, &ev, err);
    if (rc == 0 && ev.type == YAML_MAPPING_START_EVENT) {
        for (;;) {
            yaml_event_delete(&ev);
            rc = cfg__next(r, &ev, err);
            if (rc != 0 || ev.type == YAML_MAPPING_END_EVENT) {
                break;
            }
            rc = cfg__yaml_section(r, &ev, err);
            if (rc != 0) {
                break;
            }
        }
    } else if (rc == 0 && !cfg__event_is_empty(&ev)) {
        rc = cfg__shape_error(r, &ev, "the top level must be a mapping of sections", err);
    }
    yaml_event_delete(&ev);
    if (rc == 0) {
        rc = cfg__next(r, &ev, err); /* YAML_DOCUMENT_END_EVENT */
        yaml_event_delete(&ev);
    }
    return rc;
}

/* Reads the whole stream: nothing at all, or exactly one document. */
static int cfg__yaml_stream(cfg__reader *r, mu_err *err)
{
    bool document_seen = false;
    for (;;) {
        yaml_event_t ev;
        int rc = cfg__next(r, &ev, err);
        if (rc != 0) {
            return rc;
        }
        yaml_event_type_t type = ev.type;
        size_t line = cfg__line(&ev);
        yaml_event_delete(&ev);
        if (type == YAML_STREAM_END_EVENT) {
            return 0;
        }
        if (type != YAML_DOCUMENT_START_EVENT) {
            continue; /* YAML_STREAM_START_EVENT */
        }
        if (document_seen) {
            return MU_ERR(err, MU_ECONFIG, "config file %s:%zu: a second YAML document; the "
                          "file must hold exactly one", r->path, line);
        }
        document_seen = true;
        rc = cfg__yaml_document(r, err);
        if (rc != 0) {
            return rc;
        }
    }
}

/* Reads the file at path whole into a NUL-terminated malloc'd buffer. */
static int cfg__file_read(const char *path, char **data_out, size_t *length_out, mu_err *err)
{
    int rc = 0;
    size_t used_bytes = 0;
    char *data = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return MU_ERR_SYS(err, MU_ECONFIG, errno, "cannot open config file %s", path);
    }
    data = malloc(CFG__FILE_MAX_BYTES + 1);
    if (data == NULL) {
        rc = MU_ERR(err, MU_ENOMEM, "config file %s: out of memory", path);
        goto fail;
    }
    while (used_bytes <= CFG__FILE_MAX_BYTES) {
        ssize_t n = read(fd, data + used_bytes, CFG__FILE_MAX_BYTES + 1 - used_bytes);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            rc = MU_ERR_SYS(err, MU_ECONFIG, errno, "cannot read config file %s", path);
            goto fail;
        }
        if (n == 0) {
            break;
        }
        used_bytes += (size_t)n;
    }
    if (used_bytes > CFG__FILE_MAX_BYTES) {
        rc = MU_ERR(err, MU_ECONFIG, "config file %s is larger than %d bytes", path,
                    CFG__FILE_MAX_BYTES);
        goto fail;
    }
    close(fd);
    data[used_bytes] = '\0';
    *data_out = data;
    *length_out = used_bytes;
    return 0;
fail:
    free(data);
    close(fd);
    return rc;
}

int cfg__yaml_load(cfg_settings *out, const char *path, mu_err *err)
{
    MU_ASSERT(out != NULL);
    MU_ASSERT(path != NULL);
    char *data = NULL;
    size_t length_bytes = 0;
    int rc = cfg__file_read(path, &data, &length_bytes, err);
    if (rc != 0) {
        return rc;
    }
    cfg__reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.data = data;
    r.data_bytes = length_bytes;
    r.out = out;
    if (!yaml_parser_initialize(&r.parser)) {
        free(data);
        return MU_ERR(err, MU_ENOMEM, "config file %s: out of memory", path);
    }
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)data, length_bytes);
    rc = cfg__yaml_stream(&r, err);
    yaml_parser_delete(&r.parser);
    free(data);
    return rc;
}

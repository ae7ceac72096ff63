/* users.c: the users of the HTTP interface, from security.users_file: one
 * user per line, `name sha256hex|- [readonly] [databases=a,b] [limit=value...]`,
 * `#` comments. A limit (max_memory_usage, max_execution_time,
 * max_result_rows, max_result_bytes, max_rows_to_read) is the user's value
 * of that setting and the most a query may set it to. Without a file (or without a `default` line) the user default
 * exists without a password, as in ClickHouse. Passwords are checked by
 * their SHA-256; a node that listens beyond loopback refuses to start while
 * a user has no password, unless security.allow_insecure_default_user.
 */
#include "server/server_int.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int users_add(server_users *u, const char *name, size_t n, mu_err *err) {
    if (u->count == SERVER_USERS_MAX)
        return MU_ERR(err, MU_ECONFIG, "more than %d users", SERVER_USERS_MAX);
    if (n == 0 || n >= sizeof(u->users[0].name))
        return MU_ERR(err, MU_ECONFIG, "bad user name of %zu bytes", n);
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)name[i]) || name[i] == '_' || name[i] == '-' || name[i] == '.'))
            return MU_ERR(err, MU_ECONFIG, "user name %.*s: only letters, digits, _ - . allowed",
                          (int)n, name);
    for (uint32_t i = 0; i < u->count; i++)
        if (strlen(u->users[i].name) == n && memcmp(u->users[i].name, name, n) == 0)
            return MU_ERR(err, MU_ECONFIG, "user %.*s is defined twice", (int)n, name);
    server_user *x = &u->users[u->count++];
    memset(x, 0, sizeof(*x));
    memcpy(x->name, name, n);
    return 0;
}

/* Settings a users file may cap per user. */
static const char *const users_limit_names[] = {"max_memory_usage", "max_execution_time",
                                                "max_result_rows", "max_result_bytes",
                                                "max_rows_to_read"};

static bool users_limit_known(const char *opt) {
    for (size_t i = 0; i < MU_ARRAY_LEN(users_limit_names); i++) {
        size_t n = strlen(users_limit_names[i]);
        if (strncmp(opt, users_limit_names[i], n) == 0 && opt[n] == '=') return true;
    }
    return false;
}

static int users_add_limit(server_user *x, const char *opt, const char *path, unsigned lineno,
                           mu_err *err) {
    const char *eq = strchr(opt, '=');
    char *end;
    double v = strtod(eq + 1, &end);
    if (end == eq + 1 || *end != '\0' || !(v > 0) || strlen(eq + 1) >= sizeof(x->limits[0].value))
        return MU_ERR(err, MU_ECONFIG, "%s line %u: %s: a positive number is needed", path,
                      lineno, opt);
    if (x->limit_count == MU_ARRAY_LEN(x->limits))
        return MU_ERR(err, MU_ECONFIG, "%s line %u: too many limits", path, lineno);
    snprintf(x->limits[x->limit_count].name, sizeof(x->limits[0].name), "%.*s",
             (int)(eq - opt), opt);
    snprintf(x->limits[x->limit_count].value, sizeof(x->limits[0].value), "%s", eq + 1);
    x->limit_count++;
    return 0;
}

int server__users_load(const char *path, server_users *u, mu_err *err) {
    memset(u, 0, sizeof(*u));
    int rc = 0;
    if (path && path[0]) {
        FILE *f = fopen(path, "r");
        if (f == NULL) return MU_ERR_SYS(err, MU_ECONFIG, errno, "cannot read security.users_file %s", path);
        char line[4096];
        unsigned lineno = 0;
        while (rc == 0 && fgets(line, sizeof(line), f)) {
            lineno++;
            char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
            if (tok == NULL || tok[0] == '#') continue;
            rc = users_add(u, tok, strlen(tok), err);
            if (rc != 0) break;
            server_user *x = &u->users[u->count - 1];
            char *hash = strtok_r(NULL, " \t\r\n", &save);
            if (hash == NULL) {
                rc = MU_ERR(err, MU_ECONFIG, "%s line %u: user %s needs a password hash or -", path,
                            lineno, x->name);
                break;
            }
            if (strcmp(hash, "-") != 0) {
                if (strlen(hash) != 64 || strspn(hash, "0123456789abcdefABCDEF") != 64) {
                    rc = MU_ERR(err, MU_ECONFIG, "%s line %u: the password of %s must be the 64 hex "
                                "digits of its SHA-256 (or -)", path, lineno, x->name);
                    break;
                }
                for (int i = 0; i < 32; i++) {
                    unsigned v;
                    sscanf(hash + 2 * i, "%2x", &v);
                    x->sha256[i] = (uint8_t)v;
                }
                x->has_password = true;
            }
            for (char *opt = strtok_r(NULL, " \t\r\n", &save); opt && rc == 0;
                 opt = strtok_r(NULL, " \t\r\n", &save)) {
                if (strcmp(opt, "readonly") == 0) {
                    x->readonly = true;
                } else if (strncmp(opt, "databases=", 10) == 0) {
                    snprintf(x->databases, sizeof(x->databases), "%s", opt + 10);
                } else if (users_limit_known(opt)) {
                    rc = users_add_limit(x, opt, path, lineno, err);
                } else {
                    rc = MU_ERR(err, MU_ECONFIG, "%s line %u: unknown option %s (readonly, "
                                "databases=a,b, or a limit: max_memory_usage=, "
                                "max_execution_time=, max_result_rows=, max_result_bytes=, "
                                "max_rows_to_read=)", path, lineno, opt);
                }
            }
        }
        fclose(f);
        if (rc != 0) return rc;
    }
    bool has_default = false;
    for (uint32_t i = 0; i < u->count; i++) has_default |= strcmp(u->users[i].name, "default") == 0;
    if (!has_default) rc = users_add(u, "default", 7, err);
    return rc;
}

const server_user *server__users_find(const server_users *u, const char *name) {
    for (uint32_t i = 0; i < u->count; i++)
        if (strcmp(u->users[i].name, name) == 0) return &u->users[i];
    return NULL;
}

int server__users_authenticate(const server_users *u, const char *name, const char *password,
                               const server_user **out, mu_err *err) {
    const server_user *x = server__users_find(u, name);
    bool ok = x != NULL;
    if (ok && x->has_password) {
        uint8_t digest[32];
        unsigned len = 0;
        ok = EVP_Digest(password, strlen(password), digest, &len, EVP_sha256(), NULL) == 1 &&
             len == 32 && CRYPTO_memcmp(digest, x->sha256, 32) == 0;
    } else if (ok) {
        ok = password[0] == 0;
    }
    if (!ok)
        return MU_ERR(err, MU_EAUTH, "%s: Authentication failed: password is incorrect, or there "
                      "is no user with such name", name);
    *out = x;
    return 0;
}

bool server__users_insecure(const server_users *u, const char **name_out) {
    for (uint32_t i = 0; i < u->count; i++)
        if (!u->users[i].has_password) {
            *name_out = u->users[i].name;
            return true;
        }
    return false;
}

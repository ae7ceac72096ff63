/* users.c: the users of the HTTP interface, from security.users_file: one
 * user per line, `name sha256hex|- [readonly] [databases=a,b]`, `#`
 * comments. Without a file (or without a `default` line) the user default
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
                } else {
                    rc = MU_ERR(err, MU_ECONFIG, "%s line %u: unknown option %s (readonly, "
                                "databases=a,b)", path, lineno, opt);
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

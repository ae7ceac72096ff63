/* main.c: the muscles binary's entry point. Dispatches the subcommands
 * (server, the default; version; help), resolves settings once through
 * config/, and maps failures to exit codes: 0 success, 1 runtime failure,
 * 2 bad usage or bad settings (nothing started).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "config/config.h"
#include "server/server.h"

#define MU_EXIT_RUNTIME 1
#define MU_EXIT_USAGE 2

extern char **environ;

static const char usage_text[] =
    "usage: muscles [server] [--config PATH]\n"
    "       muscles version\n"
    "       muscles help [settings]\n"
    "\n"
    "Subcommands:\n"
    "  server    run the database server (the default)\n"
    "  version   print the version and exit\n"
    "  help      print this text; `help settings` prints every setting\n"
    "            as a commented muscles.yaml\n"
    "\n"
    "Settings come from built-in defaults, then the YAML file named by\n"
    "--config PATH or MUSCLES_CONFIG, then MUSCLES_<SECTION>_<NAME>\n"
    "environment variables (e.g. MUSCLES_HTTP_PORT=8123).\n";

static int command_version(void) {
    printf("muscles %s\n", MUSCLES_VERSION);
    return 0;
}

static int command_help(int argc, char **argv) {
    if (argc == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc == 1 && strcmp(argv[0], "settings") == 0) {
        mu_buf out;
        mu_err err;
        mu_buf_init(&out, 0);
        if (cfg_render_example(&out, &err) != 0) {
            fprintf(stderr, "muscles: %s\n", err.message);
            mu_buf_deinit(&out);
            return MU_EXIT_RUNTIME;
        }
        fwrite(out.data, 1, out.length_bytes, stdout);
        mu_buf_deinit(&out);
        return 0;
    }
    fprintf(stderr, "muscles: unknown help topic \"%s\"; topics: settings\n", argv[0]);
    return MU_EXIT_USAGE;
}

/* Parses `[--config PATH | --config=PATH]`; anything else is a usage error. */
static int parse_server_args(int argc, char **argv, const char **config_path) {
    *config_path = getenv(CFG_ENV_CONFIG);
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
            *config_path = argv[++i];
        } else if (strncmp(argv[i], "--config=", 9) == 0) {
            *config_path = argv[i] + 9;
        } else {
            fprintf(stderr, "muscles: unknown argument \"%s\"\n\n%s", argv[i], usage_text);
            return -1;
        }
    }
    return 0;
}

/* Roles other than `all` need the cluster layer, which does not exist yet. */
static int check_node_mode(const cfg_settings *cfg) {
    if (strcmp(cfg->node_mode, "all") == 0) return 0;
    fprintf(stderr,
            "muscles: setting node.mode (MUSCLES_NODE_MODE) = \"%s\": not supported yet; "
            "only \"all\" works in this version\n",
            cfg->node_mode);
    return -1;
}

static int command_server(int argc, char **argv) {
    const char *config_path = NULL;
    cfg_settings cfg;
    mu_err err;
    int log_level = MU_LOG_INFO;
    if (parse_server_args(argc, argv, &config_path) != 0) return MU_EXIT_USAGE;
    if (cfg_load(&cfg, config_path, environ, &err) != 0) {
        fprintf(stderr, "muscles: %s\n", err.message);
        return MU_EXIT_USAGE;
    }
    int rc = MU_EXIT_USAGE;
    if (check_node_mode(&cfg) != 0) goto done;
    if (mu_log_level_parse(cfg.log_level, &log_level) == 0) mu_log_set_level(log_level);
    if (mu_failpoints_configure_from_env(&err) != 0) {
        fprintf(stderr, "muscles: %s\n", err.message);
        goto done;
    }
    mu_log_info("server.start", "version=%s node_mode=%s", MUSCLES_VERSION, cfg.node_mode);
    rc = 0;
    if (server_run(&cfg, &err) != 0) {
        mu_log_err(MU_LOG_ERROR, "server.failed", &err);
        /* A configuration the server refuses (users, listen address) is a
         * usage error like a bad setting. */
        rc = err.code == MU_ECONFIG ? MU_EXIT_USAGE : MU_EXIT_RUNTIME;
        if (err.code == MU_ECONFIG) fprintf(stderr, "muscles: %s\n", err.message);
    } else {
        mu_log_info("server.stop", "status=clean");
    }
done:
    cfg_free(&cfg);
    return rc;
}

int main(int argc, char **argv) {
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        return command_help(0, NULL);
    }
    if (argc < 2 || argv[1][0] == '-') return command_server(argc - 1, argv + 1);
    const char *command = argv[1];
    if (strcmp(command, "server") == 0) return command_server(argc - 2, argv + 2);
    if (strcmp(command, "version") == 0 || strcmp(command, "--version") == 0) {
        return command_version();
    }
    if (strcmp(command, "help") == 0) return command_help(argc - 2, argv + 2);
    fprintf(stderr, "muscles: unknown subcommand \"%s\"\n\n%s", command, usage_text);
    return MU_EXIT_USAGE;
}

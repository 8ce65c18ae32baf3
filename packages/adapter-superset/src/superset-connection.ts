import * as v from "valibot";

/**
 * The `dashboards` key of the configuration file (bundle.md, Configuration
 * file): how to reach and log in to the Superset server.
 */
export const SupersetConnectionSchema = v.strictObject({
  url: v.pipe(
    v.string(),
    v.url("an absolute http(s) address of the Superset server is expected"),
    v.regex(/^https?:\/\//i, "an absolute http(s) address of the Superset server is expected"),
    v.description("The Superset server's address, e.g. http://host:8088"),
  ),
  username: v.pipe(v.string(), v.minLength(1, "a user name is expected"), v.description("The Superset account the platform logs in with")),
  password: v.pipe(v.string(), v.description("Its password")),
  provider: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Superset's login provider: db (default) or ldap")), "db"),
});

/** A validated Superset connection; `provider` defaults to `db`. */
export type SupersetConnection = v.InferOutput<typeof SupersetConnectionSchema>;

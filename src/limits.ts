// Field sizes (docs/api.md, limits), one rule for the API and the admin pages, for every layer that
// checks input (a DNS service's credentials and options, a notification's options, a domain's
// `config`): every credential and option value at most 1,024 characters, `config` at most 4 KiB as
// JSON, `external_id` at most 255. Larger → 422 naming the field, before anything is stored.

export const MAX_VALUE_CHARS = 1024;
export const MAX_CONFIG_BYTES = 4096;
export const MAX_EXTERNAL_ID_CHARS = 255;

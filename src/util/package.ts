// The release this code belongs to, as package.json names it: for the status answer, the API's
// document, the About page and the metrics, at any layer.

import packageJson from "../../package.json";

export const VERSION: string = packageJson.version;

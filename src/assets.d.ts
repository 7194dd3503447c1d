// Files imported `with { type: "file" }` are paths (embedded in the compiled binary).
declare module "*.css" {
  const path: string;
  export default path;
}
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}
declare module "htmx.org/dist/htmx.min.js" {
  const path: string;
  export default path;
}
declare module "*/local-time.js" {
  const path: string;
  export default path;
}
declare module "*/client.js" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
declare module "*.yaml" {
  const path: string;
  export default path;
}
declare module "*.md" {
  const path: string;
  export default path;
}

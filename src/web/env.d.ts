// Stylesheets imported for their side effect (bundled by Bun).
declare module "*.css";
declare module "*.woff2";

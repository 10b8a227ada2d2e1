// The recipe reads Next.js's public variables from `process.env`; the test page's build defines them.
declare const process: { env: Record<string, string | undefined> }
// Stylesheets imported for their effect.
declare module "*.css"
declare module "@medusajs/dashboard/css"

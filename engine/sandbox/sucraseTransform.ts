// Sucrase's `transform`, the one part of Sucrase the engine uses (transpile.ts). The published package ships
// this module bundled with Sucrase inside (engine/node/buildPackage.mjs), so an install does not pull Sucrase
// and the ten packages of its command line and require hook; a checkout, the app and the CLI bundle import it
// from node_modules like any other module.
export { transform } from 'sucrase';

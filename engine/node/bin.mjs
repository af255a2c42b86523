#!/usr/bin/env node
// The name the checkout's binary had before it became CommonJS (engine/node/bin.cjs, which says why): settings
// files and scripts that call `node engine/node/bin.mjs` keep working, through the ES module loader's extra cost.
import './bin.cjs';

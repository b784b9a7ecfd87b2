// require('https') in the bundle: see lazy-builtin.cjs
module.exports = require('./lazy-builtin.cjs')('https');

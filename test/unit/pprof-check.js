// SPDX-License-Identifier: GPL-2.0-only
//
// pprof-check.js: decode a gzipped pprof profile with the pprof-format
// package (npm, an implementation independent of libxenprofile) and print
// what it holds in the format of tools/tests/xenprofile-bench/pprof-expect
// (see there), plus "string0 ok" when string_table[0] is "" and "valid ok"
// when every id a sample or location names exists.
//
// usage: node pprof-check.js MODULE_DIR FILE.pb.gz
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const { Profile } = require(path.join(process.argv[2], 'pprof-format'));
const buf = zlib.gunzipSync(fs.readFileSync(process.argv[3]));
const p = Profile.decode(buf);
const str = p.stringTable.strings;
const num = (v) => BigInt(v);           // values may be numbers or BigInts

const types = p.sampleType.map((t) => `${str[t.type]}/${str[t.unit]}`);
const funcs = new Map(p.function.map((f) => [num(f.id), f]));
const locs = new Map(p.location.map((l) => [num(l.id), l]));
let valid = funcs.size === p.function.length &&
            locs.size === p.location.length;

function name(locId) {
    const l = locs.get(num(locId));
    const f = l && l.line.length === 1 ? funcs.get(num(l.line[0].functionId))
                                       : undefined;
    if (!f) {
        valid = false;
        return '?';
    }
    return str[Number(f.name)];
}

let total = 0n, totalValue = 0n;
const self = new Map();
for (const s of p.sample) {
    if (s.value.length !== types.length || s.locationId.length === 0) {
        valid = false;
        continue;
    }
    const count = num(s.value[0]);
    total += count;
    totalValue += num(s.value[s.value.length - 1]);
    const leaf = name(s.locationId[0]);
    s.locationId.forEach(name);
    self.set(leaf, (self.get(leaf) || 0n) + count);
}

const out = [];
out.push(`sample_types ${types.join(' ')}`);
if (p.periodType) {
    const pt = p.periodType;
    out.push(`period_type ${str[pt.type]}/${str[pt.unit]}`);
    out.push(`period ${num(p.period)}`);
}
out.push(`total_samples ${total}`);
out.push(`total_value ${totalValue}`);
out.push(`functions ${p.function.length}`);
out.push(`samples ${p.sample.length}`);
const top = [...self.entries()].sort((a, b) =>
    a[1] !== b[1] ? (a[1] > b[1] ? -1 : 1)
                  : (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
for (const [n, c] of top.slice(0, 10))
    out.push(`top ${c} ${n}`);
if (str[0] === '')
    out.push('string0 ok');
if (valid)
    out.push('valid ok');
console.log(out.join('\n'));

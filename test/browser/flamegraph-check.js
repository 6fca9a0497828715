// SPDX-License-Identifier: GPL-2.0-only
//
// flamegraph-check.js: drive a libxenprofile flame graph SVG in headless
// Chromium (playwright-core) and check what it shows against a model
// made from the folded stacks it was drawn from: the frames and their
// counts, the picture (a PNG screenshot whose pixels inside the frames
// are the frames' colours), search (prompt, highlighted frames, the
// "Matched" share, nested matches counted once), click to zoom, Reset
// Zoom, Escape, and the details line on hover.
//
// usage: node flamegraph-check.js MODULE_DIR SVG FOLDED PNG_PREFIX
//            [--search TERM] [--nested TERM] [--zoom NAME]
//            [--zoom-search TERM] [--hover NAME]
// Targets not given are chosen from the model.  CHROMIUM (default
// /usr/bin/chromium) and USER_DATA_DIR (a fresh directory) are taken
// from the environment.  Prints TAP lines without a plan ("ok - ..."),
// diagnostics as "# ..."; exits 1 if a check failed.
'use strict';

const fs = require('fs');
const path = require('path');

const [modDir, svgFile, foldedFile, pngPrefix, ...rest] =
    process.argv.slice(2);
const opt = {};
for (let i = 0; i + 1 < rest.length; i += 2)
    opt[rest[i].replace(/^--/, '')] = rest[i + 1];
const { chromium } = require(path.resolve(modDir, 'playwright-core'));

const SEARCH_RGB = 'rgb(230,0,230)';
let failed = 0;
function check(cond, desc, why) {
    console.log(`${cond ? 'ok' : 'not ok'} - ${desc}`);
    if (!cond) {
        failed++;
        if (why !== undefined)
            console.log(`# ${String(why).replace(/\n/g, '\n# ')}`);
    }
    return cond;
}
const diag = (s) => console.log(`# ${s}`);

// ---- The model: every drawn frame is a distinct prefix of a stack. ----
function readModel(file) {
    const stacks = [];
    let total = 0;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        const m = /^(.*\S)\s+(\d+)\s*$/.exec(line);
        if (!m)
            continue;
        const n = Number(m[2]);
        stacks.push({ frames: m[1].split(';'), count: n });
        total += n;
    }
    const prefixes = new Map();         // "a;b;c" -> { name, depth, count }
    for (const s of stacks)
        for (let d = 1; d <= s.frames.length; d++) {
            const key = s.frames.slice(0, d).join(';');
            const p = prefixes.get(key) ||
                { key, name: s.frames[d - 1], depth: d, count: 0, kids: 0 };
            if (!prefixes.has(key)) {
                prefixes.set(key, p);
                if (d > 1)
                    prefixes.get(s.frames.slice(0, d - 1).join(';')).kids++;
            }
            p.count += s.count;
        }
    return { stacks, total, prefixes: [...prefixes.values()] };
}

// Title text as flamegraph.c writes it: "NAME (1,234 samples, 5.67%)".
function titleOf(name, n, total) {
    const pct = name === 'all' && n === total ? '100' :
        (Math.floor(10000 * n / total + 0.5) / 100).toFixed(2);
    return `${name} (${n.toLocaleString('en-US')} samples, ${pct}%)`;
}
const reEscape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function matcher(term) {
    try {
        const re = new RegExp(term);
        return (s) => re.test(s);
    } catch (e) {
        return (s) => s.includes(term);
    }
}
// Samples of the stacks under prefix `under` (all: '') with a matching
// frame at or above it: the share a search reports, nested matches once.
function matchedPct(model, term, under) {
    const match = matcher(term);
    const base = under ? under.split(';') : [];
    let hit = 0, span = 0;
    for (const s of model.stacks) {
        if (base.some((f, i) => s.frames[i] !== f))
            continue;
        span += s.count;
        if (s.frames.slice(Math.max(base.length - 1, 0)).some(match))
            hit += s.count;
    }
    return `Matched: ${(100 * hit / span).toFixed(2)}%`;
}
// Sorted "name count" lines of a list of frames, to compare as sets.
const bag = (list) => list.map((f) => `${f.name} ${f.count}`).sort();
function sameBag(a, b) {
    const x = bag(a), y = bag(b);
    const d = x.filter((v, i) => v !== y[i]);
    return { ok: x.length === y.length && !d.length,
             why: `got ${x.length}, expected ${y.length}; first ` +
                  `difference: ${d[0] || '-'} vs ` +
                  `${y[x.indexOf(d[0])] || '-'}` };
}

// Targets not given: a wide frame with callers and callees (zoom), its
// hottest callee (search while zoomed), a frame at several places
// (search), another wide frame (hover).
function chooseTargets(model) {
    const once = new Map();
    for (const p of model.prefixes)
        once.set(p.name, (once.get(p.name) || 0) + 1);
    const unique = model.prefixes.filter((p) => once.get(p.name) === 1)
        .sort((a, b) => b.count - a.count);
    const zoom = unique.find((p) => p.depth >= 2 && p.kids > 0 &&
                             p.count < 0.9 * model.total) || unique[0];
    const kids = model.prefixes.filter((p) => p.depth === zoom.depth + 1 &&
                                       p.key.startsWith(zoom.key + ';'))
        .sort((a, b) => b.count - a.count);
    const hover = unique.find((p) => p !== zoom) || zoom;
    let many = null, best = -1;
    for (const [name, n] of once) {
        const c = model.prefixes.filter((p) => p.name === name)
            .reduce((s, p) => s + p.count, 0);
        if (n >= 2 && c > best && name !== 'all')
            [many, best] = [name, c];
    }
    const kid = kids.length ? kids[0].name : zoom.name;
    return {
        search: opt.search || `^${reEscape(many || zoom.name)}$`,
        nested: opt.nested || `^(${reEscape(zoom.name)}|${reEscape(kid)})$`,
        zoom: opt.zoom || zoom.name,
        zoomSearch: opt['zoom-search'] || `^${reEscape(kid)}$`,
        hover: opt.hover || hover.name,
    };
}

// ---- In the page. ----
function frames(page) {
    return page.evaluate(() => [...document.querySelectorAll('#frames > g')]
        .map((g) => {
            const r = g.querySelector('rect');
            const t = g.querySelector('title').textContent;
            const b = r.getBoundingClientRect();
            const cut = t.lastIndexOf(' (');
            const m = / \(([\d,]+) samples/.exec(t.substring(cut));
            return {
                title: t, name: t.substring(0, cut),
                count: m ? Number(m[1].replace(/,/g, '')) : NaN,
                fill: r.getAttribute('fill'), cls: g.getAttribute('class'),
                x: parseFloat(r.getAttribute('x')),
                w: parseFloat(r.getAttribute('width')),
                shown: getComputedStyle(g).display !== 'none' &&
                       b.width > 0,
                left: b.left, top: b.top, width: b.width, height: b.height,
            };
        }));
}
const text = (page, id) =>
    page.evaluate((i) => document.getElementById(i).textContent, id);
const attr = (page, id, a) =>
    page.evaluate(([i, n]) => document.getElementById(i).getAttribute(n),
                  [id, a]);

// Decode a PNG in a page's canvas: distinct colours and given pixels.
async function pixels(page, png, points) {
    return page.evaluate(async ([b64, pts]) => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const cx = c.getContext('2d');
        cx.drawImage(img, 0, 0);
        const d = cx.getImageData(0, 0, c.width, c.height).data;
        const seen = new Set();
        for (let i = 0; i < d.length; i += 4)
            seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        const at = (x, y) => {
            const i = 4 * (Math.floor(y) * c.width + Math.floor(x));
            return [d[i], d[i + 1], d[i + 2]];
        };
        return { w: c.width, h: c.height, colours: seen.size,
                 px: pts.map((p) => at(p[0], p[1])) };
    }, [png.toString('base64'), points]);
}

const root = (all) => all.find((f) => f.name === 'all');
const near = (a, b, eps) => Math.abs(a - b) <= eps;
const rgb = (s) => (/rgb\((\d+),(\d+),(\d+)\)/.exec(s) || []).slice(1)
    .map(Number);

async function screenshotChecks(page, ctx, all, file) {
    const png = await page.screenshot({ path: file });
    diag(`screenshot: ${file}`);
    const svgBox = await page.evaluate(() => {
        const b = document.documentElement.getBBox();
        return { w: b.width, h: b.height };
    });
    check(svgBox.w > 100 && svgBox.h > 50,
          `the SVG's bounding box is not empty (${svgBox.w.toFixed(0)}x` +
          `${svgBox.h.toFixed(0)})`);
    // Bottom row of the widest frames, left of their right edge: the
    // fill, clear of the label's glyphs.
    const wide = all.filter((f) => f.width >= 20).sort((a, b) =>
        b.width - a.width).slice(0, 12);
    const pts = wide.map((f) => [f.left + f.width - 3, f.top + 14.5]);
    const p2 = await ctx.newPage();
    const px = await pixels(p2, png, pts);
    await p2.close();
    check(png.subarray(1, 4).toString() === 'PNG' && px.colours >= 20,
          `the screenshot is a ${px.w}x${px.h} PNG of ${px.colours} ` +
          `colours (${png.length} bytes)`);
    const bad = wide.filter((f, i) => !rgb(f.fill).every((v, k) =>
        near(v, px.px[i][k], 6)));
    check(wide.length >= 5 && !bad.length,
          `the ${wide.length} widest frames show their own colour`,
          bad.map((f) => `${f.name}: ${f.fill} drawn as ` +
                  `rgb(${px.px[wide.indexOf(f)]})`).join('\n'));
}

// Click on #search, answer the prompt with term.
async function doSearch(page, dialogs, term) {
    dialogs.answer = term;
    const before = dialogs.list.length;
    await page.click('#search');
    await page.waitForFunction(() =>
        document.getElementById('search').textContent === 'Reset Search',
        null, { timeout: 5000 }).catch(() => {});
    return dialogs.list.slice(before);
}

async function searchChecks(page, dialogs, model, t, all) {
    const seen = await doSearch(page, dialogs, t.search);
    check(seen.length === 1 && seen[0].type === 'prompt',
          `"Search" asks for the term in a prompt (${seen.length} dialog)`);
    const got = (await frames(page)).filter((f) => f.fill === SEARCH_RGB);
    const match = matcher(t.search);
    const want = all.filter((f) => match(f.name));
    const cmp = sameBag(got, want);
    check(want.length > 0 && cmp.ok && got.every((f) => match(f.name)),
          `search "${t.search}" highlights exactly its ${want.length} ` +
          'frames', cmp.why);
    const m = await text(page, 'matched');
    const exp = matchedPct(model, t.search, '');
    check(m === exp, `search "${t.search}": "${m}" (expected "${exp}")`);
    await page.click('#search');                    /* Reset Search */
    const after = await frames(page);
    check(after.every((f, i) => f.fill === all[i].fill) &&
          (await text(page, 'matched')).trim() === '' &&
          (await text(page, 'search')) === 'Search',
          '"Reset Search" restores the colours and clears "Matched"');
    await doSearch(page, dialogs, t.nested);
    const n = await text(page, 'matched');
    const nexp = matchedPct(model, t.nested, '');
    check(n === nexp, `nested matches counted once: "${t.nested}": ` +
          `"${n}" (expected "${nexp}")`);
    return page.screenshot({ path: `${pngPrefix}-search.png` })
        .then(() => page.click('#search'));
}

async function zoomChecks(page, dialogs, model, t, all) {
    const z = model.prefixes.filter((p) => p.name === t.zoom);
    const zf = all.find((f) => f.name === t.zoom);
    if (!check(z.length === 1 && zf && zf.width > 4,
               `zoom target "${t.zoom}" is one frame, wide enough`))
        return;
    const under = z[0].key;
    await page.mouse.click(zf.left + zf.width / 2, zf.top + 7);
    const now = await frames(page);
    const zn = now.find((f) => f.name === t.zoom);
    check(zn.x === 0 && zn.w === 100 && near(zn.left, root(all).left, 0.5) &&
          near(zn.width, root(all).width, 0.5),
          `a click on "${t.zoom}" zooms it to the full width ` +
          `(${zn.width.toFixed(1)} px at ${zn.left.toFixed(1)}, was ` +
          `${zf.width.toFixed(1)} px)`);
    const anc = model.prefixes.filter((p) => under === p.key ||
        under.startsWith(p.key + ';'));
    const desc = model.prefixes.filter((p) => p.key.startsWith(under + ';'));
    const want = [{ name: 'all', count: model.total }, ...anc, ...desc];
    const shown = now.filter((f) => f.shown);
    const cmp = sameBag(shown, want);
    const unhid = now.filter((f) => !f.shown && f.cls !== 'hide');
    check(cmp.ok && !unhid.length,
          `zoomed: its ${anc.length} callers and ${desc.length} callees ` +
          `shown, the other ${now.length - shown.length} frames hidden`,
          cmp.ok ? `${unhid.length} not shown but not of class "hide"` :
          cmp.why);
    const wrong = shown.filter((f) => {
        const pa = f.cls === 'parent';
        const up = f.name === 'all' || anc.some((p) => p.name === f.name &&
            p.count === f.count && p.key !== under);
        const w = up ? 100 : 100 * f.count / z[0].count;
        return pa !== up || !near(f.w, w, 0.0002) ||
               !near(f.width, root(all).width * w / 100, 0.6);
    });
    check(!wrong.length, 'zoomed: callers full width and faded, callees ' +
          'stretched by total/zoomed', wrong.map((f) =>
              `${f.name}: ${f.w}% ${f.cls}`).join('\n'));
    const det = await text(page, 'details');
    const exp = `Function: ${titleOf(t.zoom, z[0].count, model.total)}`;
    check(det === exp && (await attr(page, 'unzoom', 'class')) === '',
          `zoomed: details "${det}", "Reset Zoom" shown`,
          `expected "${exp}"`);
    await doSearch(page, dialogs, t.zoomSearch);
    const m = await text(page, 'matched');
    const mexp = matchedPct(model, t.zoomSearch, under);
    check(m === mexp, `search in the zoom "${t.zoomSearch}": "${m}", of ` +
          `the zoomed frame (expected "${mexp}")`);
    await page.screenshot({ path: `${pngPrefix}-zoom.png` });
    await page.click('#search');
    await page.click('#unzoom');
    const back = await frames(page);
    const moved = back.filter((f, i) => !f.shown || f.cls !== '' ||
        !near(f.x, all[i].x, 0.0002) || !near(f.w, all[i].w, 0.0002) ||
        !near(f.width, all[i].width, 0.05));
    check(!moved.length && (await attr(page, 'unzoom', 'class')) === 'hide',
          `"Reset Zoom" puts all ${back.length} frames back, hides itself`,
          moved.slice(0, 5).map((f) => `${f.name} ${f.x}% ${f.w}%`)
              .join('\n'));
}

async function hoverChecks(page, dialogs, model, t, all) {
    const p = model.prefixes.filter((q) => q.name === t.hover);
    const f = all.find((q) => q.name === t.hover);
    const exp = p.length === 1 &&
        `Function: ${titleOf(t.hover, p[0].count, model.total)}`;
    if (f)
        await page.mouse.move(f.left + f.width / 2, f.top + 7);
    const det = await text(page, 'details');
    check(f && det === exp, `hover on "${t.hover}": details "${det}"`,
          `expected "${exp}"`);
    await page.mouse.move(root(all).left + 2, 5);
    check((await text(page, 'details')).trim() === '',
          'details cleared when the mouse leaves the frame');
    // Keys: Ctrl-F asks for a term; Escape drops the search and the zoom.
    const zf = all.find((q) => q.name === t.zoom);
    await page.mouse.click(zf.left + zf.width / 2, zf.top + 7);
    dialogs.answer = t.search;
    const before = dialogs.list.length;
    await page.keyboard.press('Control+f');
    await page.waitForFunction(() =>
        document.getElementById('search').textContent === 'Reset Search',
        null, { timeout: 5000 }).catch(() => {});
    await page.keyboard.press('Escape');
    const back = await frames(page);
    check(dialogs.list.length === before + 1 &&
          back.every((q, i) => q.shown && q.fill === all[i].fill &&
                     near(q.w, all[i].w, 0.0002)) &&
          (await text(page, 'search')) === 'Search',
          'Ctrl-F prompts for a search; Escape resets search and zoom');
}

async function main() {
    const model = readModel(foldedFile);
    const t = chooseTargets(model);
    diag(`targets: ${JSON.stringify(t)}`);
    const head = fs.readFileSync(svgFile, 'utf8').slice(0, 4096);
    const size = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(head);
    const ctx = await chromium.launchPersistentContext(
        process.env.USER_DATA_DIR, {
            executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
            headless: true,
            args: ['--headless', '--no-sandbox', '--disable-gpu',
                   '--disable-quic', '--no-first-run',
                   '--disable-background-networking',
                   '--disable-component-update', '--disable-sync'],
            viewport: { width: Number(size[1]), height: Number(size[2]) },
            deviceScaleFactor: 1,
        });
    try {
        const page = ctx.pages()[0] || await ctx.newPage();
        const errors = [];
        const dialogs = { list: [], answer: '' };
        page.on('pageerror', (e) => errors.push(String(e)));
        page.on('dialog', (d) => {
            dialogs.list.push({ type: d.type(), message: d.message() });
            d.type() === 'prompt' ? d.accept(dialogs.answer) : d.dismiss();
        });
        await page.goto('file://' + path.resolve(svgFile));
        await page.waitForSelector('#frames > g[data-i]', { state: 'attached',
                                                          timeout: 10000 });
        const all = await frames(page);
        const want = [{ name: 'all', count: model.total },
                      ...model.prefixes];
        const cmp = sameBag(all, want);
        check(cmp.ok, `${all.length} frames drawn, one per distinct ` +
              `stack prefix of the ${model.stacks.length} stacks, with ` +
              'their counts', cmp.why);
        const bad = all.filter((f) => f.title !==
            titleOf(f.name, f.count, model.total));
        check(!bad.length, 'every title reads "NAME (N samples, P%)"',
              bad.slice(0, 3).map((f) => f.title).join('\n'));
        // A flame graph: "all" full width at the bottom, every other frame
        // standing on a frame one level below that spans it.
        const loose = all.filter((f) => f.name !== 'all' && !all.some(
            (p) => near(p.top, f.top + 16, 0.5) && p.left <= f.left + 0.01 &&
                   p.left + p.width >= f.left + f.width - 0.01));
        check(root(all) && all.every((f) => f.top <= root(all).top) &&
              !loose.length, 'frames stand on their callers, "all" at ' +
              'the bottom', loose.slice(0, 3).map((f) => f.name).join('\n'));
        await screenshotChecks(page, ctx, all, `${pngPrefix}.png`);
        await searchChecks(page, dialogs, model, t, all);
        await zoomChecks(page, dialogs, model, t, all);
        await hoverChecks(page, dialogs, model, t, all);
        check(!errors.length, 'no JavaScript error in the page',
              errors.join('\n'));
    } finally {
        await ctx.close();
    }
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
    console.log(`not ok - the browser check ran to its end`);
    console.log(`# ${String(e && e.stack || e).replace(/\n/g, '\n# ')}`);
    process.exit(1);
});

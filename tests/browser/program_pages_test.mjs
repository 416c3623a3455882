// The pages of node programs written in Python (starnet.emulate's result.page, api::program_page)
// in headless Chromium: a flood on hypercube:4 under random delays and a crash, an echo on
// torus:4x4 under delays, Chang–Roberts on ring:8, and a run that breaks the port model.
//
// Usage: node program_pages_test.mjs PYTHON OUTPUT_DIR (the module on PYTHONPATH)
// program_pages.py writes the pages; each is opened in Debian's /usr/bin/chromium through
// playwright-core, stepped from its first step to its last, and checked: the step counter, a node
// box per node, messages drawn at some step, every lost message marked, a crashed node said to be, the verdict at the end (NOT VERIFIED for the broken
// run), that the page loads nothing but itself and that nothing is reported on the console.
// Screenshots of each page's first and last step go to OUTPUT_DIR.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [python, outDir] = process.argv.slice(2);
if (!python || !outDir) {
  console.error('usage: node program_pages_test.mjs PYTHON OUTPUT_DIR');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
execFileSync(python, [path.join(here, 'program_pages.py'), outDir], { stdio: ['ignore', 'inherit', 'inherit'] });
const pages = JSON.parse(fs.readFileSync(path.join(outDir, 'pages.json'), 'utf8'));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});

let failures = 0;
for (const [name, run] of Object.entries(pages)) {
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = [];
    page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`); });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    const url = pathToFileURL(run.file).href;
    page.on('request', (req) => { if (req.url() !== url) problems.push(`the page loaded ${req.url()} (it must be self-contained)`); });
    await page.goto(url);
    assert.equal(await page.textContent('#step-counter'), `Step 0 of ${run.steps}`);
    assert.equal(await page.locator('.node').count(), run.nodes, 'a box per node');
    await page.screenshot({ path: path.join(outDir, `program_${name}_first.png`) });
    let drawn = 0;
    let lost = 0;
    for (let k = 1; k <= run.steps; k++) {
      await page.click('#forward');
      assert.equal(await page.textContent('#step-counter'), `Step ${k} of ${run.steps}`);
      drawn += await page.locator('#messages .message').count();
      lost += (await page.locator('#message-labels .message-label').allTextContents()).filter((t) => t.includes('lost')).length;
    }
    assert.ok(drawn > 0, 'messages drawn');
    assert.equal(lost, run.lost, 'every lost message drawn marked as lost');
    if (run.crashed.length > 0) assert.match(await page.textContent('.node:has-text("crashed")'), /crashed/);
    const status = await page.textContent('body');
    if (run.verified) {
      assert.doesNotMatch(status, /NOT VERIFIED/);
    } else {
      assert.match(status, /NOT VERIFIED/);
    }
    await page.screenshot({ path: path.join(outDir, `program_${name}_last.png`) });
    assert.deepEqual(problems, []);
    await page.close();
    console.log(`ok   ${name}: ${run.steps} steps, ${drawn} messages drawn, ${lost} of them lost`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name}\n${err.stack ?? err}`);
  }
}
await browser.close();
console.log(failures === 0 ? 'all program page checks passed' : `${failures} program page check(s) failed`);
process.exit(failures === 0 ? 0 : 1);

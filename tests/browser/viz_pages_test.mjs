// Acceptance test of the `starnet viz` pages in headless Chromium (docs/viz.md).
//
// Usage: node viz_pages_test.mjs STARNET_EXE OUTPUT_DIR
// Generates the S_4 all-reduce page (and the S_4 broadcast page) with the starnet binary, opens
// them in Debian's /usr/bin/chromium through playwright-core (which never downloads a browser),
// steps through all 6 steps and checks the step counter, the 24 messages drawn at every step,
// every node's final value (1 + … + 24 = 300), the controls, that the page loads nothing but
// itself, and that nothing is reported on the console. Pages and screenshots go to OUTPUT_DIR
// (the build tree), never to the source tree. Exit code 0 when every check passes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [starnet, outDir] = process.argv.slice(2);
if (!starnet || !outDir) {
  console.error('usage: node viz_pages_test.mjs STARNET_EXE OUTPUT_DIR');
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });

const N = 4;
const NODES = 24;   // 4!
const STEPS = 6;    // 4·3/2
const SUM = (NODES * (NODES + 1)) / 2;  // node values are rank + 1

function page_file(args, name) {
  const file = path.join(outDir, name);
  execFileSync(starnet, [...args, '--topology', `star:${N}`, '-o', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  return file;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,  // playwright adds --headless and a fresh temporary --user-data-dir
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});

async function open(file) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  const url = pathToFileURL(file).href;
  page.on('request', (req) => { if (req.url() !== url) problems.push(`the page loaded ${req.url()} (it must be self-contained)`); });
  await page.goto(url);
  return { page, problems };
}

const counter = (page) => page.textContent('#step-counter');
const messages = (page) => page.locator('#messages .message').count();
const values = (page, cls) => page.locator(`.node .${cls} .val`).allTextContents();

let failures = 0;
async function check(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name}\n${err.stack ?? err}`);
  }
}

await check('S_4 all-reduce page: 6 steps, 24 messages each, every node ends with 300', async () => {
  const { page, problems } = await open(page_file(['viz', 'allreduce'], 'viz_allreduce_s4.html'));
  assert.equal(await counter(page), `Step 0 of ${STEPS}`);
  assert.equal(await messages(page), 0);
  assert.deepEqual(await values(page, 'result'), Array.from({ length: NODES }, (_, r) => String(r + 1)));
  await page.screenshot({ path: path.join(outDir, 'viz_allreduce_s4_step0.png') });
  for (let k = 1; k <= STEPS; k++) {
    await page.click('#forward');
    assert.equal(await counter(page), `Step ${k} of ${STEPS}`);
    assert.equal(await messages(page), NODES, `messages drawn at step ${k}`);
    assert.equal(await page.locator('#message-labels .message-label').count(), NODES, `message labels at step ${k}`);
    assert.match(await page.textContent('#phase'), /Level m = \d/, `phase sentence at step ${k}`);
    await page.screenshot({ path: path.join(outDir, `viz_allreduce_s4_step${k}.png`) });
  }
  assert.deepEqual(await values(page, 'result'), Array(NODES).fill(String(SUM)));
  assert.match(await page.textContent('#status'), new RegExp(`all ${NODES} nodes hold ${SUM}`));
  assert.equal(await page.isDisabled('#forward'), true);
  // Stepping back shows the previous step again; the start has no message.
  await page.click('#back');
  assert.equal(await counter(page), `Step ${STEPS - 1} of ${STEPS}`);
  assert.equal(await messages(page), NODES);
  await page.click('#first');
  assert.equal(await counter(page), `Step 0 of ${STEPS}`);
  assert.equal(await messages(page), 0);
  // A node's details name its buffers.
  await page.click('#node-0');
  assert.match(await page.textContent('#detail'), /Node 1234 \(rank 0\)/);
  // Play runs to the end by itself.
  await page.click('#play');
  await page.waitForFunction((text) => document.getElementById('step-counter').textContent === text,
                             `Step ${STEPS} of ${STEPS}`, { timeout: 20000 });
  assert.deepEqual(await values(page, 'result'), Array(NODES).fill(String(SUM)));
  await page.screenshot({ path: path.join(outDir, 'viz_allreduce_s4_played.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

await check('S_4 broadcast page: every node ends holding all 24 items', async () => {
  const { page, problems } = await open(page_file(['viz', 'broadcast', '--all-to-all'], 'viz_broadcast_s4.html'));
  assert.deepEqual(await values(page, 'result'), Array(NODES).fill('1'));
  await page.keyboard.press('End');
  assert.equal(await counter(page), `Step ${STEPS} of ${STEPS}`);
  assert.equal(await messages(page), NODES);
  assert.deepEqual(await values(page, 'result'), Array(NODES).fill(String(NODES)));
  await page.screenshot({ path: path.join(outDir, 'viz_broadcast_s4_end.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

await browser.close();
console.log(failures === 0 ? 'all browser checks passed' : `${failures} browser check(s) failed`);
process.exit(failures === 0 ? 0 : 1);

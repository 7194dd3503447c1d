// The DNS wire decoder under a hostile answer (issue 41): the time to refuse the compression-pointer
// bomb (56 KB, 400 records pointing into one block of labels; 1.6 MB a name before names were
// bounded) and to read the largest message it still takes (512 records, each name 255 octets
// through pointers), with the heap that reading keeps. Target (docs/operations.md, security): a few
// milliseconds and about the message's own size.

import { CLASS, decodeMessage, message, TYPE, Writer } from "../src/dns/protocols/wire";
import { compressionBomb } from "../test/fakes/dns-server";
import { heading, machine, median, ms, recordFigure, table } from "./lib/common";

const ROUNDS = 200;
const TARGET_MS = 5;

heading("DNS answers read to a bound");
console.log(`machine: ${machine()}`);

const request = message({ id: 7, questions: [{ name: "home.example.test", type: TYPE.A, class: CLASS.IN }] });
const bomb = compressionBomb(request);
// The largest message still read: a question of one name of 255 octets and 512 records whose
// names point at it (about 8 KB on the wire, 128 KB of names read).
const longName = Array.from({ length: 4 }, (_, i) => String.fromCharCode(97 + i).repeat(i < 3 ? 63 : 61)).join(".");
const wide = message({ id: 7, questions: [{ name: longName, type: TYPE.A, class: CLASS.IN }] });
const writer = new Writer().u16(7).u16(0x8400).u16(1).u16(512).u16(0).u16(0);
writer.name(longName).u16(TYPE.A).u16(CLASS.IN);
for (let i = 0; i < 512; i++)
  writer
    .u16(0xc00c)
    .u16(TYPE.A)
    .u16(CLASS.IN)
    .u32(60)
    .u16(4)
    .raw(Uint8Array.from([192, 0, 2, i % 250]));
const widest = writer.done();

function timed(bytes: Uint8Array, asked: typeof request): number[] {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    try {
      decodeMessage(bytes, asked);
    } catch {
      // The bomb is refused: that is what is timed.
    }
    times.push(performance.now() - started);
  }
  return times;
}

const bombTimes = timed(bomb, request);
Bun.gc(true);
const heapBefore = process.memoryUsage().heapUsed;
const kept = decodeMessage(widest, wide);
Bun.gc(true);
const heapAfter = process.memoryUsage().heapUsed;
const widestTimes = timed(widest, wide);
const bombMedian = median(bombTimes);
const widestMedian = median(widestTimes);
const heapKb = Math.max(0, heapAfter - heapBefore) / 1024;

console.log(
  table(
    ["message", "bytes", "median", "heap kept"],
    [
      ["the compression-pointer bomb (refused)", String(bomb.length), ms(bombMedian), ""],
      [
        `512 records of a 255-octet name (${kept.answers.length} read)`,
        String(widest.length),
        ms(widestMedian),
        `${heapKb.toFixed(0)} KB`,
      ],
    ],
  ),
);
recordFigure({
  bench: "dns",
  name: `refusing the compression-pointer bomb (${bomb.length} bytes)`,
  value: ms(bombMedian),
  target: `≤ ${TARGET_MS} ms`,
  met: bombMedian <= TARGET_MS,
});
recordFigure({
  bench: "dns",
  name: `reading 512 records of a 255-octet name (${widest.length} bytes)`,
  value: `${ms(widestMedian)}, ${heapKb.toFixed(0)} KB heap`,
  target: `≤ ${TARGET_MS} ms`,
  met: widestMedian <= TARGET_MS,
});

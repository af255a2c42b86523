// Profiling helper (not part of the bench's figures): runs one contender's decide loop for many passes so
// a --cpu-prof profile is dominated by dispatch.   node --import tsx --cpu-prof test/bench/dispatch/profileOne.ts hookwire 10 broad 30
import { decider, type ContenderName } from './contender.ts';
import { makeEvents, type Workload } from './workload.ts';

const [name, n, workload, passes] = process.argv.slice(2) as [ContenderName, string, Workload, string];
const events = makeEvents(100_000);
const decide = decider(name, Number(n), workload);
let sink = 0;
const t0 = process.cpuUsage();
for (let p = 0; p < Number(passes); p++) for (let i = 0; i < events.length; i++) sink += decide(events[i]!).decision.length;
const u = process.cpuUsage(t0);
console.log(`${name} ${n} ${workload}: ${((u.user + u.system) / (Number(passes) * events.length)).toFixed(3)} µs/event (sink ${sink})`);

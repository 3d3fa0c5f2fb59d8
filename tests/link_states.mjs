// web/link.js in node with a pretend browser (tests/test_link_states.py): an RTCPeerConnection whose
// states the test sets, a clock the test moves, and what the page tells Python, recorded. Reads a
// list of steps (JSON) on stdin, prints what Python was told after each step as JSON lines.
//   {"ask": {...}}            a message from Python (web/early.js's "pandapad-link" event)
//   {"state": "failed"}       the last link's connectionState changes, and its event fires
//   {"open": true}            the last link's data channel opens
//   {"wait": ms}              the clock moves on (timers due by then run)
import { readFileSync } from "node:fs";
import vm from "node:vm";

const [, , linkJs] = process.argv;
const steps = JSON.parse(readFileSync(0, "utf8"));

let now = 0;
let timers = [];
let timerIds = 0;
const told = [];
const links = [];

class Channel {
  constructor() { this.readyState = "connecting"; }
  send() {}
  close() { this.readyState = "closed"; if (this.onclose) this.onclose(); }
}

class PeerConnection extends EventTarget {
  constructor() {
    super();
    this.connectionState = "new";
    this.iceConnectionState = "new";
    this.iceGatheringState = "complete";
    this.signalingState = "stable";
    this.localDescription = { sdp: "v=0\r\n" };
    this.closed = false;
    links.push(this);
  }
  createDataChannel() { this.channel = new Channel(); return this.channel; }
  async setLocalDescription() {}
  async setRemoteDescription() {}
  async getStats() { return new Map(); }
  close() { this.closed = true; this.connectionState = "closed"; }
}

const bus = new EventTarget();
const page = {
  RTCPeerConnection: PeerConnection,
  navigator: { mediaDevices: { getUserMedia: async () => ({ getTracks: () => [] }) } },
  isSecureContext: true,
  performance: { now: () => now },
  setTimeout: (fn, ms) => { timers.push({ id: ++timerIds, at: now + (ms || 0), fn }); return timerIds; },
  clearTimeout: (id) => { timers = timers.filter((t) => t.id !== id); },
  addEventListener: bus.addEventListener.bind(bus),
  dispatchEvent: bus.dispatchEvent.bind(bus),
  pandapadToPython: (text) => told.push(JSON.parse(text)),
  CustomEvent, Event, Promise, JSON, Date, Math, Object, Array, String, Error, console,
};
page.window = page;
vm.createContext(page);
vm.runInContext(readFileSync(linkJs, "utf8"), page, { filename: "link.js" });

const settle = () => new Promise((resolve) => setImmediate(resolve));

for (const step of steps) {
  const pc = links[links.length - 1];
  if (step.ask) {
    bus.dispatchEvent(new CustomEvent("pandapad-link", { detail: JSON.stringify(step.ask) }));
  } else if (step.state) {
    pc.connectionState = step.state;
    pc.dispatchEvent(new Event("connectionstatechange"));
  } else if (step.open) {
    pc.channel.readyState = "open";
    pc.channel.onopen();
  } else if (step.wait) {
    const until = now + step.wait;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const due = timers[0];
      if (!due || due.at > until) break;
      timers.shift();
      now = due.at;
      due.fn();
      await settle();
    }
    now = until;
  }
  await settle();
  await settle();
  console.log(JSON.stringify({ step, told: told.splice(0).filter((m) => m.op !== "done"),
                               closed: pc ? pc.closed : null }));
}

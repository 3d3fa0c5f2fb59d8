// Pandapad on a phone by itself (make web): the page's half of a table of phones (#54).
// RTCPeerConnection exists only in the page, not in Python's worker: this script holds the
// connections to the other phones and carries their messages to and from Python, beside Flet's
// own messages (web/early.js hands this script what Python posts as {pandapadLink}, and posts
// what this script says to the worker the same way; views/hosts/phone_link.py is the other end).
// No STUN or TURN server: the phones reach each other on one Wi-Fi (or one phone's hotspot) by
// the addresses their codes carry (views/table/pairing.py). The camera's permission is asked before an
// offer or an answer is made: without it a browser offers no usable address (phones-together.md).
(function () {
  "use strict";
  var peers = {};       // peer id (Python's) -> {pc, channel}
  var GATHER_MS = 5000; // the addresses a phone has are found in well under a second
  var FAILED_MS = 5000; // a link said "failed" that is connected again by then was not (#69)
  // What each link went through (#69), kept after it ended, for whoever asks why phones did not
  // connect (a test's failure keeps it): its states, its addresses, who ended it, and what the
  // browser's ICE and DTLS said of it as it ended (getStats). The last LOGS_KEPT links.
  var logs = {};
  var LOGS_KEPT = 8;
  var logsMade = 0;

  function logFor(peer) {
    var log = { peer: peer, made: new Date().toISOString(), events: [] };
    var started = performance.now();
    log.note = function (what, detail) {
      var entry = { ms: Math.round(performance.now() - started), what: what };
      if (detail !== undefined) entry.detail = detail;
      if (log.events.length < 200) log.events.push(entry);
    };
    logs[peer + "#" + (++logsMade)] = log;
    var names = Object.keys(logs);
    names.slice(0, Math.max(0, names.length - LOGS_KEPT)).forEach(function (name) { delete logs[name]; });
    return log;
  }

  // The browser's own account of a link (getStats): its ICE pairs and its DTLS transport.
  async function statsOf(pc) {
    var report = await pc.getStats();
    var out = { transports: [], pairs: [], candidates: {} };
    report.forEach(function (s) {
      if (s.type === "transport") {
        out.transports.push({ ice: s.iceState, dtls: s.dtlsState, role: s.dtlsRole, selected: s.selectedCandidatePairId,
                              sent: s.bytesSent, received: s.bytesReceived, changes: s.selectedCandidatePairChanges });
      } else if (s.type === "candidate-pair") {
        out.pairs.push({ id: s.id, local: s.localCandidateId, remote: s.remoteCandidateId, state: s.state,
                         nominated: s.nominated, selected: s.selected, requestsSent: s.requestsSent,
                         requestsReceived: s.requestsReceived, responsesSent: s.responsesSent,
                         responsesReceived: s.responsesReceived, consentRequestsSent: s.consentRequestsSent,
                         sent: s.bytesSent, received: s.bytesReceived,
                         lastRequest: s.lastPacketSentTimestamp, lastResponse: s.lastPacketReceivedTimestamp });
      } else if (s.type === "local-candidate" || s.type === "remote-candidate") {
        out.candidates[s.id] = s.type.split("-")[0] + " " + (s.candidateType || "") + " " + (s.protocol || "") + " " +
          (s.address || s.ip || "") + ":" + (s.port || "");
      } else if (s.type === "data-channel") {
        out.channel = { state: s.state, sent: s.messagesSent, received: s.messagesReceived };
      }
    });
    return out;
  }

  function tell(message) {
    if (window.pandapadToPython) window.pandapadToPython(JSON.stringify(message));
  }

  // The camera allowed, once per page: the browser then offers the phone's real addresses.
  var allowed = null;
  function allowCamera() {
    return allowed || (allowed = (async function () {
      var media = navigator.mediaDevices;
      if (!media || !media.getUserMedia) throw new Error(window.isSecureContext ? "none" : "insecure");
      try {
        var stream = await media.getUserMedia({ audio: false, video: true });
        stream.getTracks().forEach(function (track) { track.stop(); });
      } catch (error) {
        var name = error && error.name;
        throw new Error(name === "NotAllowedError" || name === "SecurityError" ? "refused" :
          name === "NotReadableError" || name === "AbortError" ? "busy" : "none");
      }
    })().catch(function (error) { allowed = null; throw error; }));
  }

  function gathered(pc) {
    return new Promise(function (resolve) {
      if (pc.iceGatheringState === "complete") return resolve();
      var timer = setTimeout(resolve, GATHER_MS);
      pc.addEventListener("icegatheringstatechange", function () {
        if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
      });
    });
  }

  // Each event acts for the link it was made for only: a link of the same name made since (an
  // invitation made again) is another one.
  function watch(peer, channel) {
    var link = peers[peer];
    if (!link) return;
    link.channel = channel;
    var opened = false;  // "open" told once (the datachannel event may come with it open already)
    function open() {
      if (opened || peers[peer] !== link) return;
      opened = link.opened = true;
      tell({ op: "open", peer: peer });
      if (link.pc.connectionState === "failed") failing(peer, link);  // said before it opened, and still so
    }
    link.log.note("channel", channel.readyState);
    channel.onopen = function () { link.log.note("channel open"); open(); };
    channel.onmessage = function (event) {
      if (!link.heard) { link.heard = true; link.log.note("first message heard"); }
      if (typeof event.data === "string" && peers[peer] === link) tell({ op: "message", peer: peer, data: event.data });
    };
    channel.onclose = function () { link.log.note("channel closed"); ended(peer, link); };
    if (channel.readyState === "open") open();
  }

  function ended(peer, which, why) {
    var link = peers[peer];
    if (!link || (which && which !== link)) return;
    delete peers[peer];
    link.log.note("ended", why || "");
    // What the browser said of the link (its ICE pairs, its DTLS) is kept before it goes.
    statsOf(link.pc).then(function (stats) { link.log.stats = stats; }, function (error) {
      link.log.note("no stats", String(error));
    }).then(function () {
      try { link.pc.close(); } catch (error) { /* closed already */ }
    });
    tell({ op: "closed", peer: peer });
  }

  function connection(peer) {
    if (peers[peer]) ended(peer);
    var pc = new RTCPeerConnection({ iceServers: [] });
    var log = logFor(peer);
    var link = peers[peer] = { pc: pc, channel: null, log: log };
    pc.addEventListener("iceconnectionstatechange", function () { log.note("ice", pc.iceConnectionState); });
    pc.addEventListener("icegatheringstatechange", function () { log.note("gathering", pc.iceGatheringState); });
    pc.addEventListener("signalingstatechange", function () { log.note("signaling", pc.signalingState); });
    pc.addEventListener("icecandidate", function (event) {
      var c = event.candidate;
      if (c && c.candidate) log.note("candidate", [c.type, c.protocol, c.address, c.port].join(" "));
    });
    pc.addEventListener("icecandidateerror", function (event) {
      log.note("candidate error", event.errorCode + " " + event.errorText);
    });
    pc.addEventListener("connectionstatechange", function () {
      log.note("connection", pc.connectionState);
      if (peers[peer] !== link) return;
      // "disconnected" may come back by itself (a Wi-Fi hiccup): said at once, as the other phone
      // not answering. "closed" does not come back. "failed" should not either, but Chromium, as
      // the host, says it for a moment when it reads an answer 35 s or more after the guest's
      // first checks reached it (those have timed out), then connects (#69), and that "failed"
      // may come a millisecond after the channel's opening as well as before it: taken for the
      // end, it closed a link that had just opened, and both phones said they did not connect
      // (1 run in 9 of the two-engine table test). So a link is ended by "failed" only if it is
      // still failed FAILED_MS later; one not yet open is left to the pairing screens' own limits.
      var state = pc.connectionState;
      if (state === "closed") return ended(peer, link, state);
      if (state === "failed") return failing(peer, link);
      if (state === "disconnected") tell({ op: "quiet", peer: peer });
      else if (state === "connected" && link.quiet) tell({ op: "back", peer: peer });
      link.quiet = state === "disconnected";
    });
    return pc;
  }

  // An open link the browser says "failed" of: ended unless it has come back FAILED_MS later.
  function failing(peer, link) {
    if (!link.opened || link.failing) return;
    link.failing = setTimeout(function () {
      link.failing = null;
      if (peers[peer] === link && link.pc.connectionState === "failed") ended(peer, link, "failed");
    }, FAILED_MS);
  }

  // A browser built without WebRTC (Debian's WebKitGTK) cannot link phones: said in words by the
  // pairing screens (views/table/phones.py, "nortc") before any code is shown or read.
  function canLink() {
    if (typeof window.RTCPeerConnection !== "function") throw new Error("nortc");
  }

  var does = {
    // The host's phone: an invitation (an offer) for one more guest.
    invite: async function (m) {
      canLink();
      await allowCamera();
      var pc = connection(m.peer);
      watch(m.peer, pc.createDataChannel("pandapad", { ordered: true }));
      await pc.setLocalDescription();
      await gathered(pc);
      peers[m.peer] && peers[m.peer].log.note("invitation made");
      return { sdp: pc.localDescription.sdp };
    },
    // The host's phone: the guest's answer read.
    accept: async function (m) {
      var link = peers[m.peer];
      if (!link) throw new Error("gone");
      link.log.note("answer read");
      await link.pc.setRemoteDescription({ type: "answer", sdp: m.sdp });
      link.log.note("answer applied");
      return {};
    },
    // A guest's phone: the host's invitation read, an answer made.
    join: async function (m) {
      canLink();
      await allowCamera();
      var pc = connection(m.peer);
      pc.addEventListener("datachannel", function (event) { watch(m.peer, event.channel); });
      await pc.setRemoteDescription({ type: "offer", sdp: m.sdp });
      await pc.setLocalDescription();
      await gathered(pc);
      peers[m.peer] && peers[m.peer].log.note("answer made");
      return { sdp: pc.localDescription.sdp };
    },
    // One code read by the camera (assets/camera.js): the text, null (cancelled) or {failed}.
    read: async function (m) {
      canLink();
      if (!window.pandapadReadOne) return { failed: "reader" };
      var prefixes = [].concat(m.prefix);  // one, or a list (a guest reads two formats' invitations)
      var text = await window.pandapadReadOne(m.said || {}, function (text) {
        return prefixes.some(function (prefix) { return text.indexOf(prefix) === 0; });
      });
      return text !== null && typeof text === "object" ? text : { text: text };
    },
  };

  window.addEventListener("pandapad-link", function (event) {
    var m;
    try { m = JSON.parse(event.detail); } catch (error) { return; }
    if (m.op === "send") {
      var link = peers[m.peer];
      if (link && link.channel && link.channel.readyState === "open") {
        if (!link.said) { link.said = true; link.log.note("first message sent"); }
        try { link.channel.send(m.data); return; } catch (error) { /* told below: not sent */ }
      }
      tell({ op: "unsent", peer: m.peer });
      return;
    }
    if (m.op === "close") {
      // What was sent before (the host's goodbye) goes first: the channel closes after its queue.
      var closing = peers[m.peer];
      if (closing) closing.log.note("closed by Python");
      if (closing && closing.channel && closing.channel.readyState === "open") {
        closing.channel.close();
        setTimeout(function () { ended(m.peer, closing, "closed by Python"); }, 2000);
      } else {
        ended(m.peer, undefined, "closed by Python");
      }
      return;
    }
    var job = does[m.op];
    if (!job) return;
    job(m).then(function (answer) {
      tell(Object.assign({ op: "done", ask: m.ask }, answer));
    }, function (error) {
      tell({ op: "done", ask: m.ask, failed: String(error && error.message || error) });
    });
  });
  // For a test to see the links as the page holds them, and what each link went through.
  window.__pandapadLinks = peers;
  window.__pandapadLinkLogs = logs;
  window.__pandapadLinkStats = statsOf;
})();

// Pandapad on a phone by itself (make web): the page's half of a table of phones (#54).
// RTCPeerConnection exists only in the page, not in Python's worker: this script holds the
// connections to the other phones and carries their messages to and from Python, beside Flet's
// own messages (web/early.js hands this script what Python posts as {pandapadLink}, and posts
// what this script says to the worker the same way; views/hosts/phone_link.py is the other end).
// No STUN or TURN server: the phones reach each other on one Wi-Fi (or one phone's hotspot) by
// the addresses their codes carry (views/pairing.py). The camera's permission is asked before an
// offer or an answer is made: without it a browser offers no usable address (phones-together.md).
(function () {
  "use strict";
  var peers = {};       // peer id (Python's) -> {pc, channel}
  var GATHER_MS = 5000; // the addresses a phone has are found in well under a second

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
    }
    channel.onopen = open;
    channel.onmessage = function (event) {
      if (typeof event.data === "string" && peers[peer] === link) tell({ op: "message", peer: peer, data: event.data });
    };
    channel.onclose = function () { ended(peer, link); };
    if (channel.readyState === "open") open();
  }

  function ended(peer, which) {
    var link = peers[peer];
    if (!link || (which && which !== link)) return;
    delete peers[peer];
    try { link.pc.close(); } catch (error) { /* closed already */ }
    tell({ op: "closed", peer: peer });
  }

  function connection(peer) {
    if (peers[peer]) ended(peer);
    var pc = new RTCPeerConnection({ iceServers: [] });
    var link = peers[peer] = { pc: pc, channel: null };
    pc.addEventListener("connectionstatechange", function () {
      if (peers[peer] !== link) return;
      // "disconnected" may come back by itself (a Wi-Fi hiccup): said at once, as the other phone
      // not answering; "failed" and "closed" do not come back, but for a "failed" before the
      // channel first opened: Chromium, as the host, says it for a moment when it reads an answer
      // 35 s or more after the guest's first checks reached it (those have timed out), then
      // connects (#69). Until then the pairing screens' own time limits say when it failed.
      var state = pc.connectionState;
      if (state === "closed" || (state === "failed" && link.opened)) return ended(peer, link);
      if (state === "disconnected") tell({ op: "quiet", peer: peer });
      else if (state === "connected" && link.quiet) tell({ op: "back", peer: peer });
      link.quiet = state === "disconnected";
    });
    return pc;
  }

  // A browser built without WebRTC (Debian's WebKitGTK) cannot link phones: said in words by the
  // pairing screens (views/phones.py, "nortc") before any code is shown or read.
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
      return { sdp: pc.localDescription.sdp };
    },
    // The host's phone: the guest's answer read.
    accept: async function (m) {
      var link = peers[m.peer];
      if (!link) throw new Error("gone");
      await link.pc.setRemoteDescription({ type: "answer", sdp: m.sdp });
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
        try { link.channel.send(m.data); return; } catch (error) { /* told below: not sent */ }
      }
      tell({ op: "unsent", peer: m.peer });
      return;
    }
    if (m.op === "close") {
      // What was sent before (the host's goodbye) goes first: the channel closes after its queue.
      var closing = peers[m.peer];
      if (closing && closing.channel && closing.channel.readyState === "open") {
        closing.channel.close();
        setTimeout(function () { ended(m.peer, closing); }, 2000);
      } else {
        ended(m.peer);
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
  // For a test to see the links as the page holds them.
  window.__pandapadLinks = peers;
})();

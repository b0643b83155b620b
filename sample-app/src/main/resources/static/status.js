// Status page of the seqlink sample: polls the service once a second and redraws. No libraries and no
// network beyond the service itself, so the page works offline. URLs are relative, so the page also
// works under a servlet context path.
(function () {
  'use strict';

  var REFRESH_MS = 1000;
  var HISTORY = 60;                       // samples kept per series: one minute
  var DASHES = ['6 3', '2 2', '9 3 2 3', '4 4', '1 3', '12 4', '3 2 1 2'];
  var COLORS = ['#2f6fde', '#d9480f', '#2b8a3e', '#ae3ec9', '#e8590c', '#0b7285', '#5c940d', '#c2255c'];

  var history = {};                       // channel -> {t: [], rate: [], lag: {device: []}, lastPublished, lastT}
  var refreshes = 0;

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === 'text') { e.textContent = attrs[k]; } else { e.setAttribute(k, attrs[k]); }
      });
    }
    (children || []).forEach(function (c) { e.appendChild(c); });
    return e;
  }

  function svg(tag, attrs) {
    var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  function getJson(url) {
    return fetch(url, { headers: { 'Accept': 'application/json' }, cache: 'no-store' }).then(function (r) {
      // Health answers 503 with a JSON body when DOWN: still worth showing.
      if (!r.ok && r.status !== 503) { throw new Error(url + ': HTTP ' + r.status); }
      return r.json();
    });
  }

  function formatNanos(ns) {
    if (ns === null || ns === undefined || !isFinite(ns)) { return ''; }
    return ns < 1000 ? Math.round(ns) + ' ns' : (ns / 1000).toFixed(2) + ' \u00b5s';
  }

  function formatNumber(n) {
    if (n === null || n === undefined) { return '\u2013'; }
    if (typeof n === 'number' && !Number.isInteger(n)) { return n.toFixed(1); }
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  }

  function formatBytes(b) {
    if (b >= 1 << 20) { return (b / (1 << 20)).toFixed(b % (1 << 20) ? 1 : 0) + ' MiB'; }
    if (b >= 1024) { return (b / 1024).toFixed(b % 1024 ? 1 : 0) + ' KiB'; }
    return b + ' B';
  }

  // ---- header -------------------------------------------------------------------------------------

  function renderHeader(seqlink, health) {
    var backend = $('backend');
    backend.dataset.backend = seqlink.backend;
    backend.textContent = seqlink.backend === 'emulated' ? 'emulated backend (no GPU)' : seqlink.backend + ' backend';
    $('backend-reason').textContent = seqlink.backendReason || '';
    $('backend-reason').title = seqlink.backendDetail || '';
    var status = health && health.status ? health.status : 'UNKNOWN';
    $('health').dataset.status = status;
    $('health').textContent = 'health ' + status;
    if (seqlink.topology) {
      $('required-class').textContent = seqlink.topology.requiredLinkClass;
      $('required-line').hidden = false;
    }
    $('probe-note').hidden = seqlink.backend !== 'emulated';
  }

  // What a cell says under its verdict: the probe's figure, or why there is none. Only a link no
  // channel uses reads "not probed"; a used one was probed, or has nothing to probe.
  function linkFigure(l, used, emulated, verifying) {
    if (l && l.probe) {
      return 'atomic add ' + formatNanos(l.probe.atomicAddLatencyNs) + (emulated ? ' (emulated)' : '');
    }
    if (!used) { return 'not probed'; }
    if (!verifying) { return 'verification off'; }
    if (l && l.verdict === 'host-staged') { return 'no peer access'; }
    if (l && l.verdict === 'peer-copy') { return 'no peer atomics'; }
    return 'driver attributes only';
  }

  // ---- link matrix --------------------------------------------------------------------------------

  function renderMatrix(seqlink) {
    var devices = (seqlink.devices || []).map(function (d) { return d.ordinal; });
    var links = {};
    (seqlink.topology ? seqlink.topology.links : []).forEach(function (l) { links[l.producer + '>' + l.consumer] = l; });
    var usedBy = {};
    Object.keys(seqlink.channels || {}).forEach(function (name) {
      var ch = seqlink.channels[name];
      ch.consumerDevices.forEach(function (c) {
        var k = ch.producer + '>' + c;
        (usedBy[k] = usedBy[k] || []).push(name);
      });
    });

    var table = $('link-matrix');
    var head = el('tr', null, [el('th', { text: 'producer \u2193 / consumer \u2192', scope: 'col' })]);
    devices.forEach(function (d) { head.appendChild(el('th', { text: 'device ' + d, scope: 'col' })); });
    table.tHead.replaceChildren(head);

    var rows = devices.map(function (p) {
      var tr = el('tr', null, [el('th', { text: 'device ' + p, scope: 'row' })]);
      devices.forEach(function (c) {
        if (p === c) {
          tr.appendChild(el('td', { 'class': 'self', text: '\u2014' }));
          return;
        }
        var l = links[p + '>' + c];
        var verdict = l ? l.verdict : 'unknown';
        var used = usedBy[p + '>' + c];
        var td = el('td', {
          'class': 'link' + (used ? ' used' : ''),
          'data-producer': String(p),
          'data-consumer': String(c),
          'data-verdict': verdict,
          'data-probed': l && l.probe ? 'true' : 'false',
          title: (l ? l.reason : 'no verdict') + (used ? '\nused by: ' + used.join(', ') : '\nno channel uses this link')
        }, [
          el('span', { 'class': 'verdict', text: verdict }),
          el('span', { 'class': 'latency', text: linkFigure(l, used, seqlink.backend === 'emulated',
            !seqlink.topology || seqlink.topology.verificationEnabled) })
        ]);
        if (l && l.probe && l.probe.acquireLoadLatencyNs) {
          td.dataset.atomicAddNs = String(l.probe.atomicAddLatencyNs);
          td.dataset.acquireLoadNs = String(l.probe.acquireLoadLatencyNs);
        }
        tr.appendChild(td);
      });
      return tr;
    });
    table.tBodies[0].replaceChildren.apply(table.tBodies[0], rows);
  }

  // ---- channels -----------------------------------------------------------------------------------

  function record(name, ch, now) {
    var h = history[name];
    if (!h) {
      h = history[name] = { rate: [], lag: {}, lastPublished: ch.publishedOnDevice, lastT: now };
    } else {
      var dt = (now - h.lastT) / 1000;
      var rate = dt > 0 ? Math.max(0, ch.publishedOnDevice - h.lastPublished) / dt : 0;
      push(h.rate, rate);
      h.lastPublished = ch.publishedOnDevice;
      h.lastT = now;
    }
    ch.consumers.forEach(function (c) {
      var series = h.lag[c.device] = h.lag[c.device] || [];
      push(series, c.lag);
    });
    return h;
  }

  function push(series, value) {
    series.push(value);
    if (series.length > HISTORY) { series.shift(); }
  }

  // Draws series into a 300 x 60 view box: one polyline each, scaled to the largest value (at least 1).
  function chart(kind, name, seriesList) {
    var w = 300;
    var hgt = 60;
    var max = 1;
    var points = 0;
    seriesList.forEach(function (s) {
      s.values.forEach(function (v) { if (v > max) { max = v; } });
      points = Math.max(points, s.values.length);
    });
    var dataMax = 0;
    seriesList.forEach(function (s) { s.values.forEach(function (v) { if (v > dataMax) { dataMax = v; } }); });
    var root = svg('svg', {
      'class': 'chart', viewBox: '0 0 ' + w + ' ' + hgt, preserveAspectRatio: 'none', role: 'img',
      'data-kind': kind, 'data-channel': name, 'data-points': String(points), 'data-max': String(dataMax),
      'aria-label': kind + ' of ' + name
    });
    [0.25, 0.5, 0.75].forEach(function (f) {
      root.appendChild(svg('line', { 'class': 'grid', x1: 0, x2: w, y1: hgt * f, y2: hgt * f }));
    });
    seriesList.forEach(function (s, i) {
      var n = s.values.length;
      var coords = s.values.map(function (v, j) {
        var x = n <= 1 ? w : (w * (HISTORY - n + j)) / (HISTORY - 1);
        var y = hgt - 2 - (hgt - 4) * (v / max);
        return x.toFixed(1) + ',' + y.toFixed(1);
      });
      // Lines that coincide (two consumers at the same lag) must both stay visible: the first is drawn wide and
      // solid, each later one narrower and dashed in its own pattern, on top of it.
      var line = svg('polyline', { points: coords.join(' '), stroke: s.color || COLORS[i % COLORS.length],
        'stroke-width': i === 0 ? '2.6' : '1.4', 'stroke-dasharray': i === 0 ? 'none' : DASHES[(i - 1) % DASHES.length],
        'data-series': s.label, 'data-points': String(n) });
      root.appendChild(line);
    });
    return { node: root, max: dataMax };
  }

  function chartBlock(title, c, legend) {
    var children = [
      el('div', { 'class': 'chart-title' }, [el('span', { text: title }), el('span', { text: 'max ' + formatNumber(Math.round(c.max * 10) / 10) })]),
      c.node
    ];
    if (legend) { children.push(legend); }
    return el('div', { 'class': 'chart-block' }, children);
  }

  function renderChannels(seqlink) {
    var now = Date.now();
    var container = $('channels');
    var cards = Object.keys(seqlink.channels || {}).map(function (name) {
      var ch = seqlink.channels[name];
      var h = record(name, ch, now);
      var rateNow = h.rate.length ? h.rate[h.rate.length - 1] : 0;
      var transports = ch.consumers.map(function (c) { return c.device + ': ' + c.transport; }).join(', ');
      var rate = chart('rate', name, [{ label: 'publish rate', values: h.rate, color: '#2f6fde' }]);
      var lagSeries = ch.consumers.map(function (c, i) {
        return { label: 'device ' + c.device, values: h.lag[c.device] || [], color: COLORS[(i + 1) % COLORS.length] };
      });
      var lag = chart('lag', name, lagSeries);
      var legend = el('div', { 'class': 'series-legend' }, lagSeries.map(function (s) {
        var item = el('span', null, [el('i', { style: 'background:' + s.color })]);
        item.appendChild(document.createTextNode(s.label));
        return item;
      }));
      var figures = el('div', { 'class': 'figures' }, [
        el('span', null, [el('b', { 'class': 'published', text: formatNumber(ch.publishedOnDevice) }), document.createTextNode(' published')]),
        el('span', null, [el('b', { 'class': 'rate', text: formatNumber(Math.round(rateNow * 10) / 10) }), document.createTextNode(' frames/s')]),
        el('span', null, [el('b', { 'class': 'lag', text: formatNumber(ch.maxLag) }), document.createTextNode(' max lag')])
      ]);
      return el('article', { 'class': 'channel', 'data-channel': name, 'data-state': ch.state }, [
        el('h3', { text: name }),
        el('div', { 'class': 'meta', text: 'device ' + ch.producer + ' \u2192 ' + ch.consumerDevices.join(', ') + ' \u00b7 '
          + ch.delivery + ' \u00b7 ' + ch.slots + ' \u00d7 ' + formatBytes(ch.slotBytes) + ' \u00b7 ' + transports
          + (ch.state !== 'open' ? ' \u00b7 ' + ch.state : '') }),
        figures,
        chartBlock('publish rate (frames/s)', rate),
        chartBlock('consumer lag (frames)', lag, legend)
      ]);
    });
    container.replaceChildren.apply(container, cards);
  }

  // ---- pipeline -----------------------------------------------------------------------------------

  function renderPipeline(p) {
    if (!p) { return; }
    $('producer-device').textContent = p.producerDevice;
    var items = [
      ['produced', p.produced], ['collected', p.collected], ['verified (recomputed)', p.verifiedFully],
      ['in flight', p.inFlight], ['failures', p.failures],
      ['mean end-to-end', p.endToEndLatency && p.endToEndLatency.meanMicros !== null
        ? (p.endToEndLatency.meanMicros / 1000).toFixed(2) + ' ms' : '\u2013']
    ];
    (p.inference || []).forEach(function (d) { items.push(['device ' + d.device + ' inferred', d.inferred]); });
    var stats = $('pipeline-stats');
    stats.replaceChildren.apply(stats, items.map(function (it) {
      var bad = it[0] === 'failures' && it[1] > 0;
      return el('div', { 'class': bad ? 'bad' : '', 'data-stat': it[0] },
        [el('dt', { text: it[0] }), el('dd', { text: typeof it[1] === 'string' ? it[1] : formatNumber(it[1]) })]);
    }));
  }

  function setupInject() {
    $('inject').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var out = $('inject-result');
      var body = { count: Number($('inject-count').value) };
      var seed = $('inject-seed').value.trim();
      if (seed !== '') { body.seed = /^-?\d+$/.test(seed) ? Number(seed) : seed; }
      out.textContent = 'publishing\u2026';
      delete out.dataset.ok;
      fetch('api/frames', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
        .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, status: r.status, json: j }; }); })
        .then(function (r) {
          out.dataset.ok = String(r.ok);
          out.textContent = r.ok
            ? 'published ' + r.json.published + ' frames (' + r.json.firstSequence + '\u2013' + r.json.lastSequence + ')'
            : 'HTTP ' + r.status + ': ' + (r.json.detail || r.json.title);
        })
        .catch(function (e) { out.dataset.ok = 'false'; out.textContent = String(e); });
    });
  }

  // ---- loop ---------------------------------------------------------------------------------------

  function refresh() {
    Promise.all([
      getJson('actuator/seqlink'),
      getJson('actuator/health').catch(function () { return null; }),
      getJson('api/pipeline').catch(function () { return null; })
    ]).then(function (r) {
      renderHeader(r[0], r[1]);
      renderMatrix(r[0]);
      renderChannels(r[0]);
      renderPipeline(r[2]);
      $('offline').hidden = true;
      refreshes++;
      document.body.dataset.state = 'live';
      document.body.dataset.refreshes = String(refreshes);
    }).catch(function (e) {
      $('offline').hidden = false;
      document.body.dataset.state = 'offline';
      if (window.console) { console.warn('seqlink status: ' + e); }
    }).then(function () {
      setTimeout(refresh, REFRESH_MS);
    });
  }

  setupInject();
  refresh();
}());

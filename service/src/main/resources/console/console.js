// The console's only script: uploads with progress, links, confirmations, live charts.
// No framework, no build step; served from /console/assets/.
'use strict';

function csrfToken() {
  const m = document.querySelector('meta[name="csrf-token"]');
  return m ? m.content : '';
}

function encodeKey(key) {
  return encodeURIComponent(key);
}

// Delete and similar forms ask first.
document.addEventListener('submit', (e) => {
  const msg = e.target.dataset && e.target.dataset.confirm;
  if (msg && !window.confirm(msg)) e.preventDefault();
});

// Uploads: each file a PUT of its bytes, with a progress bar of its own.
function setUpUploads() {
  const zone = document.getElementById('dropzone');
  if (!zone) return;
  const input = document.getElementById('files');
  const list = document.getElementById('uploads');
  const bucket = zone.dataset.bucket;
  const prefix = zone.dataset.prefix || '';
  let pending = 0;
  let failed = 0;

  function upload(file) {
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = file.name;
    const bar = document.createElement('progress');
    bar.max = file.size || 1;
    bar.value = 0;
    bar.setAttribute('aria-label', 'Upload of ' + file.name);
    const state = document.createElement('span');
    state.textContent = 'uploading';
    li.append(name, bar, state);
    list.append(li);
    pending++;
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', '/console/api/b/' + encodeURIComponent(bucket) + '/objects?key=' + encodeKey(prefix + file.name));
    xhr.setRequestHeader('X-CSRF-Token', csrfToken());
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) { bar.max = e.total; bar.value = e.loaded; } };
    xhr.onload = () => {
      const ok = xhr.status === 200;
      if (ok) bar.value = bar.max; else failed++;
      state.textContent = ok ? 'done' : 'failed (' + xhr.status + ')';
      li.dataset.state = ok ? 'done' : 'failed';
      finish();
    };
    xhr.onerror = () => { failed++; state.textContent = 'failed'; li.dataset.state = 'failed'; finish(); };
    xhr.send(file);
  }

  function finish() {
    pending--;
    if (pending === 0) {
      list.dataset.state = failed ? 'failed' : 'done';
      if (!failed) {
        const p = document.createElement('p');
        p.setAttribute('role', 'status');
        const a = document.createElement('a');
        a.href = window.location.pathname + '?prefix=' + encodeURIComponent(prefix);
        a.id = 'refresh';
        a.textContent = 'Show the uploaded files';
        p.append(a);
        list.after(p);
      }
    }
  }

  input.addEventListener('change', () => { for (const f of input.files) upload(f); input.value = ''; });
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    for (const f of e.dataTransfer.files) upload(f);
  });
}

// Links: asks the server for the URL (it signs with the session's key), shows it, copies it.
function setUpLinks() {
  const section = document.querySelector('section.links');
  if (!section) return;
  const out = document.getElementById('link');
  const status = document.getElementById('linkStatus');
  for (const button of section.querySelectorAll('button[data-kind]')) {
    button.addEventListener('click', async () => {
      const body = new URLSearchParams({
        key: section.dataset.key, kind: button.dataset.kind, expires: document.getElementById('expiry').value });
      const r = await fetch('/console/api/b/' + encodeURIComponent(section.dataset.bucket) + '/link', {
        method: 'POST', headers: { 'X-CSRF-Token': csrfToken() }, body, credentials: 'same-origin' });
      const j = await r.json();
      if (!r.ok) { status.textContent = 'No link: ' + j.error; return; }
      out.value = j.url;
      out.select();
      let copied = false;
      try { await navigator.clipboard.writeText(j.url); copied = true; } catch (e) { copied = document.execCommand('copy'); }
      status.textContent = (copied ? 'Copied. ' : 'Select and copy the link above. ')
        + (j.expires === 'never' ? 'It never expires.' : 'It expires at ' + j.expires + '.');
    });
  }
}

// Broken thumbnails (not an image after all, too large) become a plain label.
function setUpThumbnails() {
  for (const img of document.querySelectorAll('.grid img')) {
    img.addEventListener('error', () => { img.replaceWith(Object.assign(document.createElement('span'), { textContent: 'no preview' })); });
  }
}

// Operations: polls the figures every 2 s and draws them on canvases.
const COLORS = ['#0b5cad', '#b42318', '#1a7f37', '#8250df', '#bf8700', '#57606a'];

function draw(canvasId, series, unit) {
  const c = document.getElementById(canvasId);
  if (!c) return;
  const g = c.getContext('2d');
  const w = c.width, h = c.height, pad = 30;
  g.clearRect(0, 0, w, h);
  let max = 0;
  for (const s of series) for (const v of s.values) if (v != null && v > max) max = v;
  if (unit === 'ratio') max = 1;
  if (max === 0) max = 1;
  g.strokeStyle = '#d0d7de';
  g.fillStyle = '#545d68';
  g.font = '11px sans-serif';
  for (let i = 0; i <= 2; i++) {
    const y = pad / 2 + (h - pad) * i / 2;
    g.beginPath(); g.moveTo(pad, y); g.lineTo(w, y); g.stroke();
    g.fillText(formatValue(max * (1 - i / 2), unit), 0, y + 4);
  }
  series.forEach((s, k) => {
    g.strokeStyle = COLORS[k % COLORS.length];
    g.lineWidth = 2;
    g.beginPath();
    let started = false;
    s.values.forEach((v, i) => {
      if (v == null) { started = false; return; }
      const x = pad + (w - pad) * i / Math.max(1, s.values.length - 1);
      const y = pad / 2 + (h - pad) * (1 - v / max);
      if (started) g.lineTo(x, y); else { g.moveTo(x, y); started = true; }
    });
    g.stroke();
  });
  const legend = document.getElementById(canvasId + 'Legend');
  legend.replaceChildren(...series.map((s, k) => {
    const span = document.createElement('span');
    span.style.color = COLORS[k % COLORS.length];
    const last = s.values.length ? s.values[s.values.length - 1] : null;
    span.textContent = s.name + ': ' + (last == null ? '–' : unit === 'ms' ? millis(last) : formatValue(last, unit));
    return span;
  }));
}

function formatValue(v, unit) {
  if (unit === 'ratio') return (v * 100).toFixed(0) + ' %';
  if (v >= 100) return v.toFixed(0);
  return v.toFixed(v >= 10 ? 1 : 2);
}

// A latency for people: three significant digits at most, with its unit ("1.75 ms", "312 ms", "1.2 s").
function millis(v) {
  if (v == null) return '–';
  if (v >= 1000) return (v / 1000).toPrecision(v >= 10000 ? 3 : 2).replace(/\.0+$/, '') + ' s';
  if (v >= 100) return Math.round(v) + ' ms';
  return Number(v.toPrecision(3)) + ' ms';
}

function bytes(n) {
  if (n < 0) return 'unknown';
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
  return n.toFixed(i ? 1 : 0) + ' ' + u[i];
}

function duration(seconds) {
  if (seconds < 120) return seconds + ' s';
  if (seconds < 7200) return Math.round(seconds / 60) + ' min';
  if (seconds < 172800) return (seconds / 3600).toFixed(1) + ' h';
  return (seconds / 86400).toFixed(1) + ' days';
}

// An empty table says so in words, in one cell across its columns.
function fillRows(tableId, rows, whenEmpty) {
  const table = document.getElementById(tableId);
  const body = table.querySelector('tbody');
  if (!rows.length && whenEmpty) {
    const td = document.createElement('td');
    td.colSpan = Math.max(1, table.querySelectorAll('thead th').length);
    td.className = 'empty';
    td.textContent = whenEmpty;
    const tr = document.createElement('tr');
    tr.append(td);
    body.replaceChildren(tr);
    return;
  }
  body.replaceChildren(...rows.map((cells) => {
    const tr = document.createElement('tr');
    cells.forEach((text, i) => {
      const cell = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) cell.scope = 'row';
      cell.textContent = text;
      tr.append(cell);
    });
    return tr;
  }));
}

async function pollOps() {
  const r = await fetch('/console/api/ops', { credentials: 'same-origin' });
  if (!r.ok) return;
  const j = await r.json();
  const s = j.samples;
  const pick = (f) => s.map(f);
  draw('rps', [{ name: 'requests/s', values: pick((x) => x.requestsPerSecond) }], 'n');
  draw('latency', [{ name: 'p50', values: pick((x) => x.p50Millis) }, { name: 'p99', values: pick((x) => x.p99Millis) }], 'ms');
  draw('errors', [{ name: 'errors/s', values: pick((x) => x.errorsPerSecond) }], 'n');
  const tiers = s.length ? Object.keys(s[s.length - 1].hitRatios) : [];
  draw('ratios', tiers.map((t) => ({ name: t, values: pick((x) => x.hitRatios[t]) })), 'ratio');
  const last = s[s.length - 1];
  if (last) {
    fillRows('now', [
      ['Requests per second', last.requestsPerSecond.toFixed(1)],
      ['Latency p50', millis(last.p50Millis)],
      ['Latency p99', millis(last.p99Millis)],
      ['Errors per second', last.errorsPerSecond.toFixed(2)],
      ...tiers.map((t) => ['Hit ratio, ' + t, last.hitRatios[t] == null ? '–' : (last.hitRatios[t] * 100).toFixed(1) + ' %'])]);
  }
  fillRows('disk', Object.entries(j.disk).map(([tier, d]) => [tier, bytes(d.used), bytes(d.free), bytes(d.total)]));
  if (j.checkpoints) {
    fillRows('backups', j.checkpoints.map((c) => [c.id, c.createdAt, c.expiresAt]),
      'No backup is running: no backup job holds a checkpoint of this service now.');
  }
  if (j.backup && !Object.keys(j.backup).length) {
    fillRows('backupjob', [], 'No backup run has been reported yet: the backup job has not written its metrics file.');
  } else if (j.backup && j.backup.error) {
    fillRows('backupjob', [], j.backup.error);
  } else if (j.backup) {
    const b = j.backup;
    const or = (v) => (v == null ? '–' : String(v));
    fillRows('backupjob', [
      ['Last success', or(b.lastSuccess)],
      ['Lag (time since the last success)', b.lagSeconds == null ? '–' : duration(b.lagSeconds)],
      ['Last run', or(b.lastRun) + (b.lastRunSucceeded == null ? '' : b.lastRunSucceeded ? ' (succeeded)' : ' (failed)')],
      ['Its duration (s)', or(b.durationSeconds)],
      ['Its objects', or(b.objects)],
      ['Bytes it copied', b.copiedBytes == null ? '–' : bytes(b.copiedBytes)],
      ['Its errors', or(b.errors)],
      ['Next scheduled run', or(b.nextRun)]]);
  }
  if (j.backupHistory) {
    const h = j.backupHistory;
    fillRows('backuphistory', h.runs.map((r) => [r.id, r.status, r.startedAt, r.durationSeconds.toFixed(1),
      String(r.objects), bytes(r.copiedBytes), String(r.errors)]),
      h.readAt == null ? null : 'No backup has run yet: the archive holds no run report.');
    // The archive is read in the background: say what is shown, from when, and whether the last read failed.
    const state = document.getElementById('backuphistorystate');
    const text = h.readAt == null
      ? (h.error ? 'Could not read ' + h.archive + ': ' + h.error : 'Reading ' + h.archive + '…')
      : 'Read from ' + h.archive + ' at ' + h.readAt + '.' + (h.error ? ' The last read failed: ' + h.error : '');
    if (state.textContent !== text) state.textContent = text;
    state.dataset.state = h.error ? 'error' : (h.readAt == null ? 'reading' : 'read');
  }
  if (j.nodes) fillRows('nodes', j.nodes.map((n) => [n.address, n.datacenter, n.state, String(n.openConnections)]));
}

function setUpOps() {
  if (!document.getElementById('rps')) return;
  pollOps();
  setInterval(pollOps, 2000);
}

document.addEventListener('DOMContentLoaded', () => {
  setUpUploads();
  setUpLinks();
  setUpThumbnails();
  setUpOps();
});

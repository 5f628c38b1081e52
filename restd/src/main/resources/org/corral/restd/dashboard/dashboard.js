// Corral's web dashboard: one page, views by #fragment, every piece of data read from slurmrestd's
// REST API (and its /dashboard/api/ reads) with the user's token, so a user sees exactly what the
// API shows them. No framework; text is always set as text (job names, scripts and output are
// the users' own words, never markup).
(function () {
  'use strict';
  const V = 'v0.0.42';
  const TOKEN_KEY = 'corral.token';
  const CPU_COLOR = '#d62728';
  const MEM_COLOR = '#1f77b4';
  let me = null;          // the user the token belongs to (meta.client.user)
  let timers = [];        // the current view's pollers, stopped when the view changes

  const $ = (id) => document.getElementById(id);

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v;
      else if (k === 'onclick') e.addEventListener('click', v);
      else e.setAttribute(k, v);
    }
    for (const c of children.flat()) {
      if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  function table(headers, rows, numeric) {
    return el('table', {},
      el('thead', {}, el('tr', {}, headers.map((h) => el('th', {}, h)))),
      el('tbody', {}, rows.map((r) => el('tr', {}, r.map((c, i) =>
        el('td', numeric && numeric.includes(i) ? { class: 'num' } : {}, c))))));
  }

  /** Slurm's {set, infinite, number} or a plain value, as a number (null when unset). */
  function num(v) {
    if (v === null || v === undefined) return null;
    if (typeof v === 'object') return v.set ? (v.infinite ? Infinity : v.number) : null;
    return v;
  }

  function when(epoch) {
    const t = num(epoch);
    return t ? new Date(t * 1000).toLocaleString() : '';
  }

  function duration(s) {
    if (s === null || s === undefined || s < 0) return '';
    s = Math.round(s);
    const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
    const two = (n) => String(n).padStart(2, '0');
    return (d ? d + '-' : '') + two(h) + ':' + two(m) + ':' + two(s % 60);
  }

  function token() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  /** The envelope's errors as one line each: "error (number): description". */
  function errorText(doc, status) {
    const errs = (doc && doc.errors) || [];
    if (!errs.length) return 'HTTP ' + status;
    return errs.map((e) => (e.error || 'error') + ' (' + e.error_number + '): ' + (e.description || '')).join('\n');
  }

  /** A REST call with the token; resolves to the document, rejects with the API's error text. */
  async function api(method, path) {
    const r = await fetch(path, { method, headers: { 'X-SLURM-USER-TOKEN': token() || '' }, cache: 'no-store' });
    const text = await r.text();
    let doc = null;
    try { doc = JSON.parse(text); } catch (e) { /* plain-text answers: 401, 404 */ }
    if (r.status === 401) {
      const err = new Error(doc ? errorText(doc, r.status) : text.trim());
      err.status = 401;
      throw err;
    }
    if (!r.ok || !doc || (doc.errors && doc.errors.length)) {
      const err = new Error(doc ? errorText(doc, r.status) : text.trim() || 'HTTP ' + r.status);
      err.status = r.status;
      err.doc = doc;
      throw err;
    }
    return doc;
  }

  function showError(e) {
    $('errors').textContent = e ? String(e.message || e) : '';
  }

  // ---- log in

  async function login(t) {
    sessionStorage.setItem(TOKEN_KEY, t.trim());
    try {
      const doc = await api('GET', '/slurm/' + V + '/ping');
      me = doc.meta.client.user;
    } catch (e) {
      sessionStorage.removeItem(TOKEN_KEY);
      me = null;
      $('login-error').textContent = e.message;
      return false;
    }
    $('login-error').textContent = '';
    return true;
  }

  function logout() {
    sessionStorage.removeItem(TOKEN_KEY);
    me = null;
    location.hash = '#/login';
    route();
  }

  // ---- views

  async function overview(view) {
    const [nodes, jobs] = await Promise.all([api('GET', '/slurm/' + V + '/nodes'), api('GET', '/slurm/' + V + '/jobs')]);
    const byState = {};
    let cpus = 0, allocCpus = 0, mem = 0, allocMem = 0, gpus = 0, allocGpus = 0;
    for (const n of nodes.nodes) {
      const s = n.state.join('+');
      byState[s] = (byState[s] || 0) + 1;
      cpus += n.cpus; allocCpus += n.alloc_cpus;
      mem += n.real_memory; allocMem += n.alloc_memory;
      gpus += gpuCount(n.gres); allocGpus += gpuCount(n.gres_used);
    }
    const jobStates = {};
    for (const j of jobs.jobs) jobStates[j.job_state[0]] = (jobStates[j.job_state[0]] || 0) + 1;
    view.append(
      el('h2', {}, 'Cluster ', nodes.meta.slurm.cluster),
      el('div', { class: 'cards' },
        card('Nodes', nodes.nodes.length, Object.entries(byState).map(([s, n]) => s + ': ' + n).join(', ')),
        card('CPUs allocated', allocCpus + ' / ' + cpus, bar(allocCpus, cpus)),
        card('Memory allocated (MB)', allocMem + ' / ' + mem, bar(allocMem, mem)),
        card('GPUs allocated', allocGpus + ' / ' + gpus, bar(allocGpus, gpus)),
        card('Jobs', jobs.jobs.length, Object.entries(jobStates).map(([s, n]) => s + ': ' + n).join(', '))),
      el('h3', {}, 'Nodes by state'),
      table(['State', 'Nodes'], Object.entries(byState), [1]));
  }

  /** The GPUs in a gres string ("gpu:a100:4(S:0-1),gpu:2" or gres_used's "gpu:2(IDX:0-1)"). */
  function gpuCount(gres) {
    let n = 0;
    for (const g of (gres || '').split(',')) {
      const m = /^gpu(?::[^:(]+)?:(\d+)/.exec(g.trim());
      if (m) n += parseInt(m[1], 10);
    }
    return n;
  }

  function card(title, big, detail) {
    return el('div', { class: 'card' }, el('div', {}, title), el('div', { class: 'big' }, big), el('div', {}, detail));
  }

  function bar(used, total) {
    const pct = total ? Math.min(100, 100 * used / total) : 0;
    return el('div', { class: 'bar', title: pct.toFixed(1) + '%' }, el('div', { style: 'width:' + pct + '%' }));
  }

  async function queue(view) {
    const doc = await api('GET', '/slurm/' + V + '/jobs');
    const now = Date.now() / 1000;
    const rows = doc.jobs.filter((j) => !isFinished(j)).map((j) => {
      const pending = j.job_state[0] === 'PENDING';
      const start = num(j.start_time);
      return [el('a', { href: '#/job/' + j.job_id }, String(j.job_id)), j.name, j.user_name, j.account, j.partition,
        j.job_state.join(','), pending ? j.state_reason : '', pending ? '' : duration(start ? now - start : null),
        j.nodes || '', num(j.cpus)];
    });
    view.append(el('h2', {}, 'Queue'), el('p', {}, rows.length + ' jobs pending or running'),
      table(['Job', 'Name', 'User', 'Account', 'Partition', 'State', 'Pending reason', 'Time', 'Nodes', 'CPUs'],
        rows, [7, 9]));
  }

  function isFinished(j) {
    return ['COMPLETED', 'CANCELLED', 'FAILED', 'TIMEOUT', 'NODE_FAIL', 'PREEMPTED', 'OUT_OF_MEMORY', 'BOOT_FAIL',
      'DEADLINE'].includes(j.job_state[0]);
  }

  async function nodeGrid(view) {
    const doc = await api('GET', '/slurm/' + V + '/nodes');
    view.append(el('h2', {}, 'Nodes'), el('div', { class: 'grid', id: 'node-grid' }, doc.nodes.map((n) =>
      el('div', { class: 'node ' + n.state.join(' '), title: n.reason || '' },
        el('b', {}, n.name), el('br'), n.state.join('+'), el('br'),
        'CPU ' + n.alloc_cpus + '/' + n.cpus, el('br'), 'Mem ' + n.alloc_memory + '/' + n.real_memory + ' MB',
        gpuCount(n.gres) ? [el('br'), 'GPU ' + gpuCount(n.gres_used) + '/' + gpuCount(n.gres)] : null))));
  }

  async function jobPage(view, id) {
    let job = null;
    let live = true;
    try {
      job = (await api('GET', '/slurm/' + V + '/job/' + encodeURIComponent(id))).jobs[0];
    } catch (e) {
      if (e.status !== 404) throw e;
      live = false; // gone from the controller: its accounting record
      const rec = (await api('GET', '/slurmdb/' + V + '/job/' + encodeURIComponent(id))).jobs[0];
      if (!rec) throw e;
      job = { job_id: rec.job_id, name: rec.name, user_name: rec.user, account: rec.account,
        partition: rec.partition, job_state: rec.state.current, state_reason: rec.state.reason,
        nodes: rec.nodes, submit_time: rec.time.submission, start_time: rec.time.start, end_time: rec.time.end };
    }
    const status = el('p', { id: 'job-action' });
    const cancel = el('button', { type: 'button', id: 'cancel', onclick: async () => {
      status.className = '';
      status.textContent = 'cancelling...';
      try {
        await api('DELETE', '/slurm/' + V + '/job/' + encodeURIComponent(id));
        status.className = 'ok';
        status.textContent = 'Job ' + id + ' cancelled.';
      } catch (e) {
        status.className = 'error';
        status.textContent = 'Refused: ' + e.message;
      }
    } }, 'Cancel job');
    view.append(el('h2', {}, 'Job ', String(job.job_id), ' ', job.name),
      table(['Field', 'Value'], [
        ['User', el('a', { href: '#/user/' + encodeURIComponent(job.user_name) }, job.user_name)],
        ['Account', job.account], ['Partition', job.partition],
        ['State', el('span', { id: 'job-state' }, job.job_state.join(','))],
        ['Reason', job.state_reason], ['Nodes', job.nodes || ''],
        ['Submitted', when(job.submit_time)], ['Started', when(job.start_time)],
        ['Ended', isFinished(job) ? when(job.end_time) : ''],
        ['Time limit', num(job.time_limit) ? num(job.time_limit) + ' min' : ''],
        ['Resources', job.tres_alloc_str || job.tres_req_str || '']]),
      ...(live && !isFinished(job) ? [cancel, status] : []));

    const plots = el('div', { id: 'job-plots' });
    const eff = el('div', { id: 'job-efficiency' });
    const script = el('pre', { id: 'job-script' });
    const output = el('pre', { id: 'job-output' });
    view.append(el('h3', {}, 'CPU and memory over time'), plots, el('h3', {}, 'Efficiency (seff)'), eff,
      el('h3', {}, 'Batch script'), script, el('h3', {}, 'Output (tail)'), output);
    if (live && job.job_state[0] === 'RUNNING') jobUsagePlot(plots, id);
    else plots.textContent = 'Sampled from the nodes while the job runs.';
    filled(eff, async () => {
      const e = (await api('GET', '/dashboard/api/job/' + id + '/efficiency')).efficiency;
      return table(['', ''], [
        ['State', e.state], ['Cores', e.cpus], ['Nodes', e.nodes],
        ['CPU Utilized', duration(e.cpu_seconds)],
        ['CPU Efficiency', e.cpu_percent.toFixed(2) + '% of ' + duration(e.core_wall_seconds) + ' core-walltime'],
        ['Job Wall-clock time', duration(e.wall_seconds)],
        ['Memory Utilized', kib(e.memory_kib)],
        ['Memory Efficiency', e.memory_percent.toFixed(2) + '% of ' + kib(e.memory_allocated_kib)]]);
    });
    filled(script, async () => (await api('GET', '/dashboard/api/job/' + id + '/script')).script);
    filled(output, async () => {
      const doc = await api('GET', '/dashboard/api/job/' + id + '/output');
      const warn = (doc.warnings || []).map((w) => w.description).join('\n');
      return doc.output || warn || '(empty)';
    });
  }

  /** Fills {@code target} with what {@code make} gives, or the API's refusal. */
  async function filled(target, make) {
    try {
      const v = await make();
      target.replaceChildren(v);
    } catch (e) {
      target.replaceChildren(el('span', { class: 'error' }, e.message));
    }
  }

  function kib(k) {
    if (!k) return '0.00 MB';
    const units = ['K', 'M', 'G', 'T', 'P', 'E'];
    const exp = Math.min(units.length - 1, Math.floor(Math.log(k) / Math.log(1024)));
    return (k / Math.pow(1024, exp)).toFixed(2) + ' ' + units[exp] + 'B';
  }

  /** Samples the job's CPU time and memory from its nodes every 2 s and plots cores in use and RSS. */
  function jobUsagePlot(target, id) {
    const times = [], cores = [], mem = [];
    let last = null;
    const plot = new uPlot({
      width: 700, height: 260, title: 'Job ' + id,
      series: [{}, { label: 'CPU (cores)', stroke: CPU_COLOR, width: 2, scale: 'cores' },
        { label: 'RSS (MiB)', stroke: MEM_COLOR, width: 2, scale: 'mib' }],
      axes: [{}, { scale: 'cores', label: 'cores' }, { scale: 'mib', side: 1, label: 'MiB', grid: { show: false } }],
      scales: { cores: { range: (u, min, max) => [0, Math.max(1, max * 1.2)] }, mib: { range: (u, min, max) => [0, Math.max(1, max * 1.2)] } },
    }, [times, cores, mem], el('div', { class: 'plot', id: 'job-usage-plot' }));
    target.replaceChildren(plot.root.parentNode, el('p', { id: 'job-usage-note' }));
    const sample = async () => {
      try {
        const u = await api('GET', '/dashboard/api/job/' + id + '/usage');
        const note = (u.warnings || []).map((w) => w.description).join('\n');
        $('job-usage-note') && ($('job-usage-note').textContent = note);
        if (last && u.time > last.time) {
          times.push(u.time);
          cores.push(Math.max(0, (u.cpu_seconds - last.cpu_seconds) / (u.time - last.time)));
          mem.push(u.memory_rss_bytes / 1048576);
          if (times.length > 900) { times.shift(); cores.shift(); mem.shift(); }
          plot.setData([times, cores, mem]);
          const box = plot.root.parentNode;
          box.dataset.points = String(times.length);
          box.dataset.peakCores = String(Math.max(...cores));
        }
        last = u;
        if (u.state !== 'RUNNING') stop();
      } catch (e) {
        $('job-usage-note') && ($('job-usage-note').textContent = e.message);
      }
    };
    const timer = setInterval(sample, 2000);
    const stop = () => clearInterval(timer);
    timers.push(stop);
    sample();
  }

  async function userPage(view, name) {
    name = name || me;
    const [shares, usage, jobs] = await Promise.all([
      api('GET', '/slurm/' + V + '/shares?users=' + encodeURIComponent(name)),
      api('GET', '/dashboard/api/usage?hours=168&user=' + encodeURIComponent(name)),
      api('GET', '/slurm/' + V + '/jobs')]);
    const rows = shares.shares.shares.filter((s) => s.type.includes('USER') && s.name === name).map((s) =>
      [s.cluster, s.parent, s.partition, num(s.shares), fixed(num(s.shares_normalized)), s.usage,
        fixed(num(s.usage_normalized)), fixed(num(s.effective_usage)), fixed(num(s.fairshare.factor))]);
    const mine = jobs.jobs.filter((j) => j.user_name === name && !isFinished(j));
    view.append(el('h2', {}, 'User ', name),
      el('h3', {}, 'Fairshare (sshare)'),
      table(['Cluster', 'Account', 'Partition', 'RawShares', 'NormShares', 'RawUsage', 'NormUsage', 'EffectvUsage',
        'FairShare'], rows, [3, 4, 5, 6, 7, 8]),
      el('h3', {}, 'Usage over the last 7 days (sreport, CPU hours)'),
      table(['Account', 'CPU hours'], usage.associations.map((a) => [a.account, (a.alloc_seconds / 3600).toFixed(2)]), [1]),
      el('h3', {}, 'Jobs in the queue'),
      table(['Job', 'Name', 'State', 'Reason'], mine.map((j) => [el('a', { href: '#/job/' + j.job_id }, String(j.job_id)),
        j.name, j.job_state.join(','), j.state_reason])));
  }

  function fixed(v) {
    return v === null ? '' : v === Infinity ? 'inf' : Number(v).toFixed(6);
  }

  async function usagePage(view) {
    const hours = 48;
    const doc = await api('GET', '/dashboard/api/usage?hours=' + hours);
    const t = doc.hours.map((p) => p.time);
    const util = doc.hours.map((p) => p.total_seconds ? 100 * p.alloc_seconds / p.total_seconds : 0);
    const waiting = doc.hours.map((p) => p.planned_seconds / 3600);
    view.append(el('h2', {}, 'Usage, last ' + hours + ' hours (slurmdbd hourly rollups)'));
    if (!t.length) {
      view.append(el('p', { id: 'usage-empty' }, 'No hour has been rolled up yet: slurmdbd rolls up each hour once it has passed.'));
      return;
    }
    const box1 = el('div', { class: 'plot', id: 'usage-util' });
    const box2 = el('div', { class: 'plot', id: 'usage-queue' });
    view.append(box1, box2);
    new uPlot({ width: 700, height: 220, title: 'Utilisation (% of CPU time allocated)',
      series: [{}, { label: 'allocated %', stroke: CPU_COLOR, width: 2 }], scales: { y: { range: [0, 100] } } },
    [t, util], box1);
    new uPlot({ width: 700, height: 220, title: 'Queue: CPUs eligible jobs waited for (hourly average)',
      series: [{}, { label: 'CPUs waiting', stroke: MEM_COLOR, width: 2 }] }, [t, waiting], box2);
  }

  // ---- routing

  async function route() {
    timers.forEach((stop) => stop());
    timers = [];
    showError(null);
    const hash = location.hash || '#/overview';
    if (!token() || !me) {
      if (token() && await login(token())) {
        return route();
      }
      $('nav').hidden = true; $('logout').hidden = true; $('view').hidden = true; $('login').hidden = false;
      $('who').textContent = '';
      return;
    }
    $('login').hidden = true; $('nav').hidden = false; $('logout').hidden = false;
    $('who').textContent = 'logged in as ' + me;
    $('nav-user').href = '#/user/' + encodeURIComponent(me);
    // Each view fills a box of its own: one left for another before its data came fills a
    // box no longer shown.
    const view = $('view');
    const box = el('div');
    view.replaceChildren(box);
    delete view.dataset.ready;
    view.hidden = false;
    const [, page, arg] = hash.split('/').map((s) => decodeURIComponent(s || ''));
    view.dataset.view = page;
    try {
      if (page === 'queue') await queue(box);
      else if (page === 'nodes') await nodeGrid(box);
      else if (page === 'job' && arg) await jobPage(box, arg);
      else if (page === 'user') await userPage(box, arg);
      else if (page === 'usage') await usagePage(box);
      else await overview(box);
      if (box.isConnected) view.dataset.ready = 'true';
    } catch (e) {
      if (e.status === 401) { logout(); return; }
      if (box.isConnected) showError(e);
    }
  }

  $('login-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (await login($('token').value)) {
      $('token').value = '';
      if (!location.hash || location.hash === '#/login') location.hash = '#/overview';
      else route();
    }
  });
  $('logout').addEventListener('click', logout);
  window.addEventListener('hashchange', route);
  route();
})();

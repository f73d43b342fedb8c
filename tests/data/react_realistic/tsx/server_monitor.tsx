// Server Monitor: live infrastructure dashboard streaming simulated CPU, memory and latency metrics with threshold alerts and host drill-down
import { useEffect, useMemo, useRef, useState } from 'react';
import { LineChart, Line, AreaChart, Area, XAxis, YAxis, Tooltip, Legend, CartesianGrid, ResponsiveContainer } from 'recharts';
import { Server, Cpu, MemoryStick, Gauge, AlertTriangle, CircleCheck, Pause, Play, BellOff } from 'lucide-react';

type HostStatus = 'healthy' | 'degraded' | 'down';

interface Sample {
  t: number;
  label: string;
  cpu: number;
  mem: number;
  latency: number;
  rps: number;
}

interface Host {
  id: string;
  region: string;
  baseCpu: number;
  baseLatency: number;
  samples: Sample[];
}

interface Alert {
  id: number;
  hostId: string;
  message: string;
  level: 'warn' | 'critical';
  at: string;
}

interface Thresholds {
  cpu: number;
  latency: number;
}

const WINDOW = 40;

const HOSTS: Omit<Host, 'samples'>[] = [
  { id: 'api-1', region: 'us-east', baseCpu: 42, baseLatency: 80 },
  { id: 'api-2', region: 'us-east', baseCpu: 38, baseLatency: 75 },
  { id: 'worker-1', region: 'eu-west', baseCpu: 65, baseLatency: 140 },
  { id: 'db-primary', region: 'eu-west', baseCpu: 55, baseLatency: 20 },
];

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

function nextSample(host: Omit<Host, 'samples'>, prev: Sample | undefined, t: number): Sample {
  const jitter = (scale: number) => (Math.random() - 0.5) * scale;
  const spike = Math.random() < 0.05 ? 30 : 0;
  const cpu = clamp((prev ? prev.cpu * 0.7 + host.baseCpu * 0.3 : host.baseCpu) + jitter(12) + spike, 1, 100);
  const mem = clamp((prev?.mem ?? 50) + jitter(3), 20, 98);
  const latency = clamp(host.baseLatency * (1 + cpu / 120) + jitter(host.baseLatency * 0.3) + spike * 4, 5, 2000);
  const rps = Math.round(clamp(400 - latency + jitter(80), 10, 800));
  const d = new Date();
  const label = `${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
  return { t, label, cpu: Math.round(cpu), mem: Math.round(mem), latency: Math.round(latency), rps };
}

function seedHosts(): Host[] {
  return HOSTS.map((h) => {
    const samples: Sample[] = [];
    for (let i = 0; i < WINDOW; i++) samples.push(nextSample(h, samples[i - 1], i));
    return { ...h, samples };
  });
}

function statusOf(s: Sample | undefined, th: Thresholds): HostStatus {
  if (!s) return 'down';
  if (s.cpu >= 95 || s.latency >= th.latency * 2) return 'down';
  if (s.cpu >= th.cpu || s.latency >= th.latency) return 'degraded';
  return 'healthy';
}

const STATUS_STYLE: Record<HostStatus, string> = {
  healthy: 'bg-emerald-500',
  degraded: 'bg-amber-500',
  down: 'bg-rose-600',
};

export default function App() {
  const [hosts, setHosts] = useState<Host[]>(seedHosts);
  const [selectedId, setSelectedId] = useState(HOSTS[0].id);
  const [paused, setPaused] = useState(false);
  const [thresholds, setThresholds] = useState<Thresholds>({ cpu: 80, latency: 250 });
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [muted, setMuted] = useState(false);
  const tick = useRef(WINDOW);
  const lastStatus = useRef<Record<string, HostStatus>>({});

  useEffect(() => {
    if (paused) return;
    const id = setInterval(() => {
      const t = tick.current++;
      setHosts((hs) => hs.map((h) => ({ ...h, samples: [...h.samples.slice(-(WINDOW - 1)), nextSample(h, h.samples[h.samples.length - 1], t)] })));
    }, 1000);
    return () => clearInterval(id);
  }, [paused]);

  useEffect(() => {
    const fresh: Alert[] = [];
    hosts.forEach((h) => {
      const latest = h.samples[h.samples.length - 1];
      const status = statusOf(latest, thresholds);
      const before = lastStatus.current[h.id];
      if (before && before !== status && status !== 'healthy' && latest) {
        fresh.push({
          id: Date.now() + fresh.length,
          hostId: h.id,
          level: status === 'down' ? 'critical' : 'warn',
          message: `${h.id} is ${status}: CPU ${latest.cpu}%, p95 ${latest.latency}ms`,
          at: new Date().toLocaleTimeString(),
        });
      }
      lastStatus.current[h.id] = status;
    });
    if (fresh.length && !muted) setAlerts((a) => [...fresh, ...a].slice(0, 30));
  }, [hosts, thresholds, muted]);

  const selected = hosts.find((h) => h.id === selectedId) ?? hosts[0];
  const latest = selected.samples[selected.samples.length - 1];

  const fleet = useMemo(() => {
    const latestAll = hosts.map((h) => h.samples[h.samples.length - 1]).filter((s): s is Sample => Boolean(s));
    const avg = (k: keyof Pick<Sample, 'cpu' | 'mem' | 'latency'>) => Math.round(latestAll.reduce((s, x) => s + x[k], 0) / (latestAll.length || 1));
    return {
      cpu: avg('cpu'),
      mem: avg('mem'),
      latency: avg('latency'),
      rps: latestAll.reduce((s, x) => s + x.rps, 0),
      counts: hosts.reduce<Record<HostStatus, number>>(
        (acc, h) => {
          acc[statusOf(h.samples[h.samples.length - 1], thresholds)]++;
          return acc;
        },
        { healthy: 0, degraded: 0, down: 0 },
      ),
    };
  }, [hosts, thresholds]);

  return (
    <div className="min-h-screen bg-gray-950 p-6 text-gray-100">
      <header className="mb-6 flex items-center justify-between">
        <div>
          <h1 className="flex items-center gap-2 text-xl font-semibold">
            <Server size={20} className="text-sky-400" /> Fleet monitor
          </h1>
          <p className="text-xs text-gray-500">
            {fleet.counts.healthy} healthy · {fleet.counts.degraded} degraded · {fleet.counts.down} down · {fleet.rps.toLocaleString()} req/s
          </p>
        </div>
        <div className="flex items-center gap-3 text-sm">
          <label className="flex items-center gap-2 text-gray-400">
            CPU alert
            <input type="number" value={thresholds.cpu} min={10} max={99} onChange={(e) => setThresholds((t) => ({ ...t, cpu: clamp(Number(e.target.value) || 80, 10, 99) }))} className="w-16 rounded bg-gray-800 px-2 py-1 text-gray-100" />%
          </label>
          <label className="flex items-center gap-2 text-gray-400">
            Latency alert
            <input
              type="number"
              value={thresholds.latency}
              min={20}
              onChange={(e) => setThresholds((t) => ({ ...t, latency: Math.max(20, Number(e.target.value) || 250) }))}
              className="w-20 rounded bg-gray-800 px-2 py-1 text-gray-100"
            />
            ms
          </label>
          <button onClick={() => setMuted((m) => !m)} className={`rounded-lg p-2 ${muted ? 'bg-amber-600' : 'bg-gray-800 hover:bg-gray-700'}`} aria-label="Mute alerts">
            <BellOff size={16} />
          </button>
          <button onClick={() => setPaused((p) => !p)} className="flex items-center gap-1 rounded-lg bg-gray-800 px-3 py-2 hover:bg-gray-700">
            {paused ? <Play size={14} /> : <Pause size={14} />} {paused ? 'Resume' : 'Pause'}
          </button>
        </div>
      </header>

      <div className="mb-6 grid grid-cols-4 gap-4">
        {[
          { label: 'Avg CPU', value: `${fleet.cpu}%`, icon: <Cpu size={16} />, warn: fleet.cpu >= thresholds.cpu },
          { label: 'Avg memory', value: `${fleet.mem}%`, icon: <MemoryStick size={16} />, warn: fleet.mem >= 90 },
          { label: 'Avg p95 latency', value: `${fleet.latency} ms`, icon: <Gauge size={16} />, warn: fleet.latency >= thresholds.latency },
          { label: 'Active alerts', value: String(alerts.length), icon: <AlertTriangle size={16} />, warn: alerts.some((a) => a.level === 'critical') },
        ].map((card) => (
          <div key={card.label} className={`rounded-xl border p-4 ${card.warn ? 'border-amber-600/60 bg-amber-950/30' : 'border-gray-800 bg-gray-900'}`}>
            <div className="flex items-center gap-2 text-xs text-gray-400">
              {card.icon} {card.label}
            </div>
            <div className="mt-2 font-mono text-2xl">{card.value}</div>
          </div>
        ))}
      </div>

      <div className="grid grid-cols-4 gap-6">
        <aside className="space-y-2">
          {hosts.map((h) => {
            const s = h.samples[h.samples.length - 1];
            const status = statusOf(s, thresholds);
            return (
              <button
                key={h.id}
                onClick={() => setSelectedId(h.id)}
                className={`w-full rounded-xl border p-3 text-left ${h.id === selected.id ? 'border-sky-500 bg-gray-900' : 'border-gray-800 bg-gray-900/50 hover:bg-gray-900'}`}
              >
                <div className="flex items-center justify-between">
                  <span className="font-mono text-sm">{h.id}</span>
                  <span className={`h-2.5 w-2.5 rounded-full ${STATUS_STYLE[status]}`} />
                </div>
                <div className="mt-1 flex justify-between text-xs text-gray-500">
                  <span>{h.region}</span>
                  <span>
                    {s?.cpu ?? 0}% · {s?.latency ?? 0}ms
                  </span>
                </div>
              </button>
            );
          })}
        </aside>

        <main className="col-span-2 space-y-6">
          <section className="rounded-xl border border-gray-800 bg-gray-900 p-4">
            <div className="mb-2 flex items-center justify-between">
              <h2 className="font-mono text-sm">{selected.id}: CPU and memory</h2>
              <span className="text-xs text-gray-500">last {WINDOW}s</span>
            </div>
            <div className="h-52">
              <ResponsiveContainer width="100%" height="100%">
                <AreaChart data={selected.samples}>
                  <CartesianGrid stroke="#1f2937" />
                  <XAxis dataKey="label" tick={{ fill: '#6b7280', fontSize: 10 }} interval={9} />
                  <YAxis domain={[0, 100]} tick={{ fill: '#6b7280', fontSize: 10 }} width={30} />
                  <Tooltip contentStyle={{ background: '#111827', border: '1px solid #374151' }} />
                  <Legend />
                  <Area type="monotone" dataKey="cpu" name="CPU %" stroke="#38bdf8" fill="#38bdf833" isAnimationActive={false} />
                  <Area type="monotone" dataKey="mem" name="Memory %" stroke="#a78bfa" fill="#a78bfa22" isAnimationActive={false} />
                </AreaChart>
              </ResponsiveContainer>
            </div>
          </section>
          <section className="rounded-xl border border-gray-800 bg-gray-900 p-4">
            <h2 className="mb-2 font-mono text-sm">{selected.id}: latency and throughput</h2>
            <div className="h-52">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={selected.samples}>
                  <CartesianGrid stroke="#1f2937" />
                  <XAxis dataKey="label" tick={{ fill: '#6b7280', fontSize: 10 }} interval={9} />
                  <YAxis yAxisId="ms" tick={{ fill: '#6b7280', fontSize: 10 }} width={40} />
                  <YAxis yAxisId="rps" orientation="right" tick={{ fill: '#6b7280', fontSize: 10 }} width={40} />
                  <Tooltip contentStyle={{ background: '#111827', border: '1px solid #374151' }} />
                  <Legend />
                  <Line yAxisId="ms" type="monotone" dataKey="latency" name="p95 ms" stroke="#fbbf24" dot={false} isAnimationActive={false} />
                  <Line yAxisId="rps" type="monotone" dataKey="rps" name="req/s" stroke="#34d399" dot={false} isAnimationActive={false} />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </section>
        </main>

        <aside className="rounded-xl border border-gray-800 bg-gray-900 p-4">
          <div className="mb-3 flex items-center justify-between">
            <h2 className="text-sm font-semibold">Alerts</h2>
            {alerts.length > 0 && (
              <button onClick={() => setAlerts([])} className="text-xs text-gray-500 hover:text-gray-300">
                Clear
              </button>
            )}
          </div>
          {alerts.length === 0 ? (
            <p className="flex items-center gap-2 text-sm text-emerald-400">
              <CircleCheck size={16} /> All quiet
            </p>
          ) : (
            <ul className="max-h-[460px] space-y-2 overflow-y-auto">
              {alerts.map((a) => (
                <li key={a.id} className={`rounded-lg border-l-4 bg-gray-950 p-2 text-xs ${a.level === 'critical' ? 'border-rose-500' : 'border-amber-500'}`}>
                  <div className="text-gray-200">{a.message}</div>
                  <div className="text-gray-500">{a.at}</div>
                </li>
              ))}
            </ul>
          )}
          {latest && (
            <div className="mt-4 border-t border-gray-800 pt-3 font-mono text-xs text-gray-400">
              now: cpu {latest.cpu}% · mem {latest.mem}% · {latest.rps} rps
            </div>
          )}
        </aside>
      </div>
    </div>
  );
}

// Analytics Dashboard: SaaS metrics overview with KPI cards, revenue trend, channel breakdown and a top-pages table
import { useMemo, useState } from 'react';
import {
  LineChart,
  Line,
  BarChart,
  Bar,
  PieChart,
  Pie,
  Cell,
  XAxis,
  YAxis,
  Tooltip,
  Legend,
  CartesianGrid,
  ResponsiveContainer,
} from 'recharts';
import { TrendingUp, TrendingDown, Users, DollarSign, Activity, MousePointerClick, Search, RefreshCw } from 'lucide-react';

type Range = '7d' | '30d' | '90d';

interface DailyPoint {
  date: string;
  revenue: number;
  visitors: number;
  signups: number;
}

interface ChannelShare {
  name: string;
  value: number;
}

interface PageRow {
  path: string;
  views: number;
  bounce: number;
  avgTime: number;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildSeries(days: number): DailyPoint[] {
  const rand = mulberry32(days * 17);
  const start = new Date(2024, 0, 1);
  const points: DailyPoint[] = [];
  let base = 4200;
  for (let i = 0; i < days; i++) {
    const d = new Date(start);
    d.setDate(start.getDate() + i);
    base += (rand() - 0.42) * 320;
    const visitors = Math.round(base * (0.9 + rand() * 0.2));
    points.push({
      date: d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }),
      visitors,
      revenue: Math.round(visitors * (1.8 + rand() * 0.6)),
      signups: Math.round(visitors * (0.03 + rand() * 0.02)),
    });
  }
  return points;
}

const SERIES: Record<Range, DailyPoint[]> = {
  '7d': buildSeries(7),
  '30d': buildSeries(30),
  '90d': buildSeries(90),
};

const CHANNELS: ChannelShare[] = [
  { name: 'Organic', value: 4120 },
  { name: 'Paid search', value: 2380 },
  { name: 'Social', value: 1650 },
  { name: 'Referral', value: 990 },
  { name: 'Email', value: 760 },
];

const CHANNEL_COLORS = ['#6366f1', '#22c55e', '#f59e0b', '#ec4899', '#06b6d4'];

const PAGES: PageRow[] = [
  { path: '/', views: 18230, bounce: 0.34, avgTime: 72 },
  { path: '/pricing', views: 9120, bounce: 0.41, avgTime: 95 },
  { path: '/docs/getting-started', views: 7310, bounce: 0.22, avgTime: 241 },
  { path: '/blog/launch-week', views: 5480, bounce: 0.58, avgTime: 133 },
  { path: '/features', views: 4975, bounce: 0.37, avgTime: 88 },
  { path: '/integrations', views: 3120, bounce: 0.45, avgTime: 64 },
  { path: '/changelog', views: 2210, bounce: 0.29, avgTime: 110 },
  { path: '/careers', views: 1640, bounce: 0.51, avgTime: 57 },
];

type SortKey = keyof PageRow;

function formatCurrency(n: number): string {
  return n.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
}

function formatDuration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}m ${s.toString().padStart(2, '0')}s`;
}

function percentChange(series: number[]): number {
  if (series.length < 2) return 0;
  const half = Math.floor(series.length / 2);
  const first = series.slice(0, half).reduce((a, b) => a + b, 0);
  const second = series.slice(half).reduce((a, b) => a + b, 0);
  if (first === 0) return 0;
  return ((second - first) / first) * 100;
}

interface KpiProps {
  label: string;
  value: string;
  change: number;
  icon: React.ReactNode;
}

function KpiCard({ label, value, change, icon }: KpiProps) {
  const positive = change >= 0;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-center justify-between">
        <span className="text-sm font-medium text-slate-500">{label}</span>
        <span className="rounded-lg bg-indigo-50 p-2 text-indigo-600">{icon}</span>
      </div>
      <div className="mt-3 text-2xl font-semibold text-slate-900">{value}</div>
      <div className={`mt-1 flex items-center gap-1 text-sm ${positive ? 'text-emerald-600' : 'text-rose-600'}`}>
        {positive ? <TrendingUp size={16} /> : <TrendingDown size={16} />}
        <span>{Math.abs(change).toFixed(1)}%</span>
        <span className="text-slate-400">vs previous period</span>
      </div>
    </div>
  );
}

export default function App() {
  const [range, setRange] = useState<Range>('30d');
  const [query, setQuery] = useState('');
  const [sortKey, setSortKey] = useState<SortKey>('views');
  const [sortAsc, setSortAsc] = useState(false);
  const [metric, setMetric] = useState<'revenue' | 'visitors'>('revenue');
  const [lastRefreshed, setLastRefreshed] = useState(() => new Date());

  const series = SERIES[range];

  const totals = useMemo(() => {
    const revenue = series.reduce((sum, p) => sum + p.revenue, 0);
    const visitors = series.reduce((sum, p) => sum + p.visitors, 0);
    const signups = series.reduce((sum, p) => sum + p.signups, 0);
    return {
      revenue,
      visitors,
      signups,
      conversion: visitors ? (signups / visitors) * 100 : 0,
      revenueChange: percentChange(series.map((p) => p.revenue)),
      visitorChange: percentChange(series.map((p) => p.visitors)),
      signupChange: percentChange(series.map((p) => p.signups)),
    };
  }, [series]);

  const weekly = useMemo(() => {
    const buckets: { week: string; signups: number }[] = [];
    for (let i = 0; i < series.length; i += 7) {
      const chunk = series.slice(i, i + 7);
      buckets.push({ week: chunk[0]?.date ?? `W${i / 7 + 1}`, signups: chunk.reduce((s, p) => s + p.signups, 0) });
    }
    return buckets;
  }, [series]);

  const pages = useMemo(() => {
    const q = query.trim().toLowerCase();
    const filtered = PAGES.filter((p) => p.path.toLowerCase().includes(q));
    return [...filtered].sort((a, b) => {
      const av = a[sortKey];
      const bv = b[sortKey];
      const cmp = typeof av === 'string' && typeof bv === 'string' ? av.localeCompare(bv) : Number(av) - Number(bv);
      return sortAsc ? cmp : -cmp;
    });
  }, [query, sortKey, sortAsc]);

  const toggleSort = (key: SortKey) => {
    if (key === sortKey) {
      setSortAsc((v) => !v);
    } else {
      setSortKey(key);
      setSortAsc(false);
    }
  };

  const channelTotal = CHANNELS.reduce((s, c) => s + c.value, 0);

  return (
    <div className="min-h-screen bg-slate-50 p-6 text-slate-800">
      <header className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Analytics</h1>
          <p className="text-sm text-slate-500">Last refreshed {lastRefreshed.toLocaleTimeString()}</p>
        </div>
        <div className="flex items-center gap-3">
          <div className="flex rounded-lg border border-slate-200 bg-white p-1">
            {(['7d', '30d', '90d'] as Range[]).map((r) => (
              <button
                key={r}
                onClick={() => setRange(r)}
                className={`rounded-md px-3 py-1.5 text-sm font-medium ${range === r ? 'bg-indigo-600 text-white' : 'text-slate-600 hover:bg-slate-100'}`}
              >
                {r}
              </button>
            ))}
          </div>
          <button
            onClick={() => setLastRefreshed(new Date())}
            className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm hover:bg-slate-100"
          >
            <RefreshCw size={16} /> Refresh
          </button>
        </div>
      </header>

      <section className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <KpiCard label="Revenue" value={formatCurrency(totals.revenue)} change={totals.revenueChange} icon={<DollarSign size={18} />} />
        <KpiCard label="Visitors" value={totals.visitors.toLocaleString()} change={totals.visitorChange} icon={<Users size={18} />} />
        <KpiCard label="Sign-ups" value={totals.signups.toLocaleString()} change={totals.signupChange} icon={<Activity size={18} />} />
        <KpiCard label="Conversion" value={`${totals.conversion.toFixed(2)}%`} change={totals.signupChange - totals.visitorChange} icon={<MousePointerClick size={18} />} />
      </section>

      <section className="mt-6 grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:col-span-2">
          <div className="mb-4 flex items-center justify-between">
            <h2 className="font-semibold">Trend</h2>
            <select
              value={metric}
              onChange={(e: React.ChangeEvent<HTMLSelectElement>) => setMetric(e.target.value as 'revenue' | 'visitors')}
              className="rounded-md border border-slate-200 px-2 py-1 text-sm"
            >
              <option value="revenue">Revenue</option>
              <option value="visitors">Visitors</option>
            </select>
          </div>
          <div className="h-72">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={series} margin={{ top: 5, right: 10, left: 0, bottom: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                <XAxis dataKey="date" tick={{ fontSize: 12 }} minTickGap={24} />
                <YAxis tick={{ fontSize: 12 }} width={60} />
                <Tooltip />
                <Line type="monotone" dataKey={metric} stroke="#6366f1" strokeWidth={2} dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        </div>

        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 className="mb-4 font-semibold">Traffic by channel</h2>
          <div className="h-56">
            <ResponsiveContainer width="100%" height="100%">
              <PieChart>
                <Pie data={CHANNELS} dataKey="value" nameKey="name" innerRadius={50} outerRadius={80} paddingAngle={2}>
                  {CHANNELS.map((c, i) => (
                    <Cell key={c.name} fill={CHANNEL_COLORS[i % CHANNEL_COLORS.length]} />
                  ))}
                </Pie>
                <Tooltip />
              </PieChart>
            </ResponsiveContainer>
          </div>
          <ul className="mt-2 space-y-1 text-sm">
            {CHANNELS.map((c, i) => (
              <li key={c.name} className="flex items-center justify-between">
                <span className="flex items-center gap-2">
                  <span className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: CHANNEL_COLORS[i % CHANNEL_COLORS.length] }} />
                  {c.name}
                </span>
                <span className="text-slate-500">{((c.value / channelTotal) * 100).toFixed(1)}%</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="mt-6 grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 className="mb-4 font-semibold">Weekly sign-ups</h2>
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={weekly}>
                <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
                <XAxis dataKey="week" tick={{ fontSize: 11 }} />
                <YAxis tick={{ fontSize: 11 }} width={40} />
                <Tooltip />
                <Legend />
                <Bar dataKey="signups" name="Sign-ups" fill="#22c55e" radius={[4, 4, 0, 0]} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </div>

        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:col-span-2">
          <div className="mb-4 flex items-center justify-between gap-3">
            <h2 className="font-semibold">Top pages</h2>
            <label className="flex items-center gap-2 rounded-md border border-slate-200 px-2 py-1">
              <Search size={14} className="text-slate-400" />
              <input
                value={query}
                onChange={(e: React.ChangeEvent<HTMLInputElement>) => setQuery(e.target.value)}
                placeholder="Filter paths"
                className="w-40 text-sm outline-none"
              />
            </label>
          </div>
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-slate-500">
                {(
                  [
                    ['path', 'Page'],
                    ['views', 'Views'],
                    ['bounce', 'Bounce'],
                    ['avgTime', 'Avg. time'],
                  ] as [SortKey, string][]
                ).map(([key, label]) => (
                  <th key={key} className="cursor-pointer select-none py-2 font-medium" onClick={() => toggleSort(key)}>
                    {label}
                    {sortKey === key ? (sortAsc ? ' ▲' : ' ▼') : ''}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {pages.map((p) => (
                <tr key={p.path} className="border-b border-slate-100 last:border-0 hover:bg-slate-50">
                  <td className="py-2 font-mono text-indigo-600">{p.path}</td>
                  <td className="py-2">{p.views.toLocaleString()}</td>
                  <td className="py-2">{(p.bounce * 100).toFixed(0)}%</td>
                  <td className="py-2">{formatDuration(p.avgTime)}</td>
                </tr>
              ))}
              {pages.length === 0 && (
                <tr>
                  <td colSpan={4} className="py-6 text-center text-slate-400">
                    No pages match “{query}”
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

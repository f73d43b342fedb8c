// Sales Dashboard: KPI cards, revenue trend, channel mix and a filterable recent-orders table
import { useState, useMemo } from 'react';
import {
  LineChart, Line, BarChart, Bar, PieChart, Pie, Cell, XAxis, YAxis, CartesianGrid, Tooltip, Legend, ResponsiveContainer,
} from 'recharts';
import {
  DollarSign, ShoppingCart, Users, TrendingUp, TrendingDown, Search, Bell, LayoutDashboard, Package, Settings, Download,
} from 'lucide-react';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const REVENUE = [42, 38, 51, 47, 56, 61, 58, 66, 72, 69, 81, 94].map((k, i) => ({
  month: MONTHS[i],
  revenue: k * 1000,
  target: 50000 + i * 3000,
  orders: Math.round(k * 11.5),
}));

const CHANNELS = [
  { name: 'Organic', value: 38, color: '#6366f1' },
  { name: 'Paid ads', value: 24, color: '#f59e0b' },
  { name: 'Email', value: 18, color: '#10b981' },
  { name: 'Referral', value: 12, color: '#ec4899' },
  { name: 'Social', value: 8, color: '#0ea5e9' },
];

const REGIONS = [
  { region: 'North America', q3: 182, q4: 224 },
  { region: 'Europe', q3: 141, q4: 158 },
  { region: 'Asia Pacific', q3: 97, q4: 131 },
  { region: 'LATAM', q3: 44, q4: 52 },
];

const CUSTOMERS = ['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Soylent', 'Wonka Ltd', 'Cyberdyne'];
const PRODUCTS = ['Pro plan', 'Team plan', 'Enterprise seat', 'Add-on storage', 'Support package'];
const STATUSES = ['Paid', 'Pending', 'Refunded'];

const ORDERS = Array.from({ length: 24 }, (_, i) => ({
  id: `ORD-${(10420 + i).toString()}`,
  customer: CUSTOMERS[(i * 7) % CUSTOMERS.length],
  product: PRODUCTS[(i * 3) % PRODUCTS.length],
  amount: 120 + ((i * 379) % 2400),
  status: STATUSES[i % 7 === 0 ? 2 : i % 3 === 0 ? 1 : 0],
  date: new Date(2024, 10, 28 - i).toLocaleDateString('en-US', { month: 'short', day: 'numeric' }),
}));

const currency = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

function StatCard({ icon: Icon, label, value, change, accent }) {
  const positive = change >= 0;
  return (
    <div className="bg-white rounded-xl p-5 shadow-sm border border-gray-100">
      <div className="flex items-center justify-between">
        <span className="text-sm text-gray-500">{label}</span>
        <span className={`p-2 rounded-lg ${accent}`}>
          <Icon className="w-4 h-4" />
        </span>
      </div>
      <p className="text-2xl font-bold text-gray-900 mt-3">{value}</p>
      <p className={`text-xs mt-1 flex items-center gap-1 ${positive ? 'text-emerald-600' : 'text-rose-600'}`}>
        {positive ? <TrendingUp className="w-3 h-3" /> : <TrendingDown className="w-3 h-3" />}
        {positive ? '+' : ''}{change}% vs last period
      </p>
    </div>
  );
}

const STATUS_BADGE = {
  Paid: 'bg-emerald-50 text-emerald-700',
  Pending: 'bg-amber-50 text-amber-700',
  Refunded: 'bg-rose-50 text-rose-700',
};

export default function App() {
  const [range, setRange] = useState(12);
  const [query, setQuery] = useState('');
  const [statusFilter, setStatusFilter] = useState('All');
  const [sortDesc, setSortDesc] = useState(true);
  const [activeNav, setActiveNav] = useState('Overview');

  const series = useMemo(() => REVENUE.slice(-range), [range]);

  const kpis = useMemo(() => {
    const revenue = series.reduce((s, m) => s + m.revenue, 0);
    const orders = series.reduce((s, m) => s + m.orders, 0);
    const half = Math.floor(series.length / 2) || 1;
    const first = series.slice(0, half).reduce((s, m) => s + m.revenue, 0);
    const second = series.slice(half).reduce((s, m) => s + m.revenue, 0);
    const growth = first ? Math.round(((second - first) / first) * 100) : 0;
    return { revenue, orders, aov: orders ? revenue / orders : 0, growth };
  }, [series]);

  const filteredOrders = useMemo(() => {
    const q = query.trim().toLowerCase();
    return ORDERS
      .filter((o) => statusFilter === 'All' || o.status === statusFilter)
      .filter((o) => !q || o.customer.toLowerCase().includes(q) || o.id.toLowerCase().includes(q) || o.product.toLowerCase().includes(q))
      .sort((a, b) => (sortDesc ? b.amount - a.amount : a.amount - b.amount));
  }, [query, statusFilter, sortDesc]);

  const exportCsv = () => {
    const rows = [['id', 'customer', 'product', 'amount', 'status'], ...filteredOrders.map((o) => [o.id, o.customer, o.product, o.amount, o.status])];
    const csv = rows.map((r) => r.join(',')).join('\n');
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'orders.csv';
    link.click();
    URL.revokeObjectURL(url);
  };

  const nav = [
    { name: 'Overview', icon: LayoutDashboard },
    { name: 'Orders', icon: ShoppingCart },
    { name: 'Products', icon: Package },
    { name: 'Customers', icon: Users },
    { name: 'Settings', icon: Settings },
  ];

  return (
    <div className="min-h-screen flex bg-gray-50 text-gray-800">
      <aside className="w-60 bg-gray-900 text-gray-300 flex flex-col">
        <div className="px-6 py-5 text-white text-xl font-bold tracking-tight">Northwind<span className="text-indigo-400">.</span></div>
        <nav className="flex-1 px-3 space-y-1">
          {nav.map(({ name, icon: Icon }) => (
            <button
              key={name}
              onClick={() => setActiveNav(name)}
              className={`w-full flex items-center gap-3 px-3 py-2 rounded-lg text-sm ${activeNav === name ? 'bg-gray-800 text-white' : 'hover:bg-gray-800/60'}`}
            >
              <Icon className="w-4 h-4" /> {name}
            </button>
          ))}
        </nav>
        <div className="p-4 text-xs text-gray-500">Data refreshed 5 min ago</div>
      </aside>

      <main className="flex-1 p-8 overflow-y-auto">
        <header className="flex items-center justify-between mb-6">
          <div>
            <h1 className="text-2xl font-bold">Sales overview</h1>
            <p className="text-sm text-gray-500">Track revenue, orders and acquisition channels.</p>
          </div>
          <div className="flex items-center gap-3">
            <select value={range} onChange={(e) => setRange(Number(e.target.value))} className="border border-gray-200 rounded-lg px-3 py-2 text-sm bg-white">
              <option value={3}>Last 3 months</option>
              <option value={6}>Last 6 months</option>
              <option value={12}>Last 12 months</option>
            </select>
            <button className="relative p-2 rounded-lg bg-white border border-gray-200" aria-label="Notifications">
              <Bell className="w-4 h-4" />
              <span className="absolute -top-1 -right-1 w-4 h-4 bg-rose-500 text-white text-[10px] rounded-full flex items-center justify-center">3</span>
            </button>
            <div className="w-9 h-9 rounded-full bg-indigo-500 text-white flex items-center justify-center font-semibold">JD</div>
          </div>
        </header>

        <section className="grid grid-cols-4 gap-4 mb-6">
          <StatCard icon={DollarSign} label="Revenue" value={currency.format(kpis.revenue)} change={kpis.growth} accent="bg-indigo-50 text-indigo-600" />
          <StatCard icon={ShoppingCart} label="Orders" value={kpis.orders.toLocaleString()} change={8} accent="bg-amber-50 text-amber-600" />
          <StatCard icon={TrendingUp} label="Avg. order value" value={currency.format(kpis.aov)} change={3} accent="bg-emerald-50 text-emerald-600" />
          <StatCard icon={Users} label="New customers" value="1,284" change={-2} accent="bg-pink-50 text-pink-600" />
        </section>

        <section className="grid grid-cols-3 gap-4 mb-6">
          <div className="col-span-2 bg-white rounded-xl p-5 shadow-sm border border-gray-100">
            <h2 className="font-semibold mb-4">Revenue vs target</h2>
            <div className="h-64">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={series}>
                  <CartesianGrid strokeDasharray="3 3" stroke="#f1f5f9" />
                  <XAxis dataKey="month" tick={{ fontSize: 12 }} />
                  <YAxis tickFormatter={(v) => `$${v / 1000}k`} tick={{ fontSize: 12 }} />
                  <Tooltip formatter={(v) => currency.format(v)} />
                  <Legend />
                  <Line type="monotone" dataKey="revenue" stroke="#6366f1" strokeWidth={2} dot={false} />
                  <Line type="monotone" dataKey="target" stroke="#cbd5e1" strokeDasharray="5 5" dot={false} />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </div>
          <div className="bg-white rounded-xl p-5 shadow-sm border border-gray-100">
            <h2 className="font-semibold mb-4">Traffic channels</h2>
            <div className="h-44">
              <ResponsiveContainer width="100%" height="100%">
                <PieChart>
                  <Pie data={CHANNELS} dataKey="value" nameKey="name" innerRadius={45} outerRadius={70} paddingAngle={2}>
                    {CHANNELS.map((c) => <Cell key={c.name} fill={c.color} />)}
                  </Pie>
                  <Tooltip formatter={(v) => `${v}%`} />
                </PieChart>
              </ResponsiveContainer>
            </div>
            <ul className="mt-2 space-y-1 text-sm">
              {CHANNELS.map((c) => (
                <li key={c.name} className="flex items-center justify-between">
                  <span className="flex items-center gap-2"><span className="w-2.5 h-2.5 rounded-full" style={{ backgroundColor: c.color }} />{c.name}</span>
                  <span className="text-gray-500">{c.value}%</span>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="grid grid-cols-3 gap-4">
          <div className="bg-white rounded-xl p-5 shadow-sm border border-gray-100">
            <h2 className="font-semibold mb-4">Revenue by region ($k)</h2>
            <div className="h-64">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={REGIONS} layout="vertical" margin={{ left: 20 }}>
                  <XAxis type="number" tick={{ fontSize: 11 }} />
                  <YAxis type="category" dataKey="region" tick={{ fontSize: 11 }} width={90} />
                  <Tooltip />
                  <Bar dataKey="q3" fill="#c7d2fe" name="Q3" />
                  <Bar dataKey="q4" fill="#6366f1" name="Q4" />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </div>

          <div className="col-span-2 bg-white rounded-xl p-5 shadow-sm border border-gray-100">
            <div className="flex items-center justify-between mb-4 gap-3">
              <h2 className="font-semibold">Recent orders</h2>
              <div className="flex items-center gap-2">
                <div className="relative">
                  <Search className="w-4 h-4 absolute left-2.5 top-2.5 text-gray-400" />
                  <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search orders" className="pl-8 pr-3 py-2 border border-gray-200 rounded-lg text-sm w-48" />
                </div>
                <select value={statusFilter} onChange={(e) => setStatusFilter(e.target.value)} className="border border-gray-200 rounded-lg px-2 py-2 text-sm">
                  {['All', ...STATUSES].map((s) => <option key={s}>{s}</option>)}
                </select>
                <button onClick={exportCsv} className="flex items-center gap-1 text-sm px-3 py-2 rounded-lg bg-indigo-600 text-white hover:bg-indigo-700">
                  <Download className="w-4 h-4" /> CSV
                </button>
              </div>
            </div>
            <div className="max-h-64 overflow-y-auto">
              <table className="w-full text-sm">
                <thead className="text-gray-500 text-left sticky top-0 bg-white">
                  <tr>
                    <th className="py-2 font-medium">Order</th>
                    <th className="py-2 font-medium">Customer</th>
                    <th className="py-2 font-medium">Product</th>
                    <th className="py-2 font-medium">Date</th>
                    <th className="py-2 font-medium cursor-pointer select-none" onClick={() => setSortDesc((d) => !d)}>
                      Amount {sortDesc ? '↓' : '↑'}
                    </th>
                    <th className="py-2 font-medium">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {filteredOrders.map((o) => (
                    <tr key={o.id} className="border-t border-gray-100">
                      <td className="py-2 font-mono text-xs">{o.id}</td>
                      <td className="py-2">{o.customer}</td>
                      <td className="py-2 text-gray-500">{o.product}</td>
                      <td className="py-2 text-gray-500">{o.date}</td>
                      <td className="py-2 font-medium">{currency.format(o.amount)}</td>
                      <td className="py-2"><span className={`px-2 py-0.5 rounded-full text-xs ${STATUS_BADGE[o.status]}`}>{o.status}</span></td>
                    </tr>
                  ))}
                  {filteredOrders.length === 0 && (
                    <tr><td colSpan={6} className="py-8 text-center text-gray-400">No orders match your filters.</td></tr>
                  )}
                </tbody>
              </table>
            </div>
          </div>
        </section>
      </main>
    </div>
  );
}

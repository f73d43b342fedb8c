// Crypto Watchlist: simulated live price ticks, sparkline table, selectable price chart with time ranges and a portfolio value calculator
import { useState, useEffect, useMemo, useRef } from 'react';
import { LineChart, Line, AreaChart, Area, XAxis, YAxis, Tooltip, ResponsiveContainer, CartesianGrid } from 'recharts';

const COINS = [
  { symbol: 'BTC', name: 'Bitcoin', price: 64250, vol: 0.004, color: '#f7931a' },
  { symbol: 'ETH', name: 'Ethereum', price: 3180, vol: 0.006, color: '#627eea' },
  { symbol: 'SOL', name: 'Solana', price: 148.2, vol: 0.011, color: '#14f195' },
  { symbol: 'ADA', name: 'Cardano', price: 0.452, vol: 0.009, color: '#0033ad' },
  { symbol: 'DOT', name: 'Polkadot', price: 6.84, vol: 0.01, color: '#e6007a' },
  { symbol: 'LINK', name: 'Chainlink', price: 14.71, vol: 0.012, color: '#2a5ada' },
];

const RANGES = { '1H': 60, '6H': 120, '24H': 240 };

function makeHistory(coin, points) {
  const out = [];
  let p = coin.price;
  let seed = coin.symbol.charCodeAt(0) * 97 + coin.symbol.length;
  for (let i = points - 1; i >= 0; i -= 1) {
    seed = (seed * 16807) % 2147483647;
    const r = seed / 2147483647 - 0.5;
    p = p / (1 + r * coin.vol * 2);
    out.unshift({ t: i, price: p });
  }
  return out.map((pt, i) => ({ t: i, price: pt.price }));
}

function formatPrice(p) {
  if (p >= 1000) return p.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  if (p >= 1) return p.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `$${p.toFixed(4)}`;
}

function useSimulatedMarket(intervalMs) {
  const [market, setMarket] = useState(() => Object.fromEntries(COINS.map((c) => [c.symbol, makeHistory(c, 240)])));
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused) return undefined;
    const id = setInterval(() => {
      setMarket((prev) => {
        const next = {};
        COINS.forEach((c) => {
          const series = prev[c.symbol];
          const last = series[series.length - 1];
          const drift = (Math.random() - 0.5) * c.vol * 2;
          const price = Math.max(0.0001, last.price * (1 + drift));
          next[c.symbol] = [...series.slice(1), { t: last.t + 1, price }];
        });
        return next;
      });
    }, intervalMs);
    return () => clearInterval(id);
  }, [intervalMs, paused]);
  return { market, paused, setPaused };
}

function Sparkline({ data, color }) {
  return (
    <div className="w-28 h-10">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data}>
          <Line type="monotone" dataKey="price" stroke={color} strokeWidth={1.5} dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

function usePrevious(value) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  }, [value]);
  return ref.current;
}

export default function App() {
  const { market, paused, setPaused } = useSimulatedMarket(1500);
  const [selected, setSelected] = useState('BTC');
  const [range, setRange] = useState('6H');
  const [watch, setWatch] = useState(['BTC', 'ETH', 'SOL']);
  const [holdings, setHoldings] = useState({ BTC: '0.15', ETH: '2', SOL: '25' });
  const [sortKey, setSortKey] = useState('change');

  const rows = useMemo(() => {
    const list = COINS.map((c) => {
      const series = market[c.symbol];
      const last = series[series.length - 1].price;
      const first = series[0].price;
      const high = Math.max(...series.map((p) => p.price));
      const low = Math.min(...series.map((p) => p.price));
      return { ...c, last, change: ((last - first) / first) * 100, high, low, spark: series.slice(-40) };
    });
    return list.sort((a, b) => (sortKey === 'name' ? a.name.localeCompare(b.name) : sortKey === 'price' ? b.last - a.last : b.change - a.change));
  }, [market, sortKey]);

  const prices = Object.fromEntries(rows.map((r) => [r.symbol, r.last]));
  const prevPrices = usePrevious(prices);
  const coin = rows.find((r) => r.symbol === selected) || rows[0];
  const chartData = market[selected].slice(-RANGES[range]).map((p, i) => ({ i, price: Number(p.price.toPrecision(6)) }));

  const portfolio = useMemo(() => Object.entries(holdings).map(([symbol, qty]) => {
    const amount = Number(qty);
    return { symbol, qty, valid: qty === '' || (!Number.isNaN(amount) && amount >= 0), value: (Number.isNaN(amount) ? 0 : amount) * (prices[symbol] || 0) };
  }), [holdings, prices]);
  const portfolioTotal = portfolio.reduce((s, p) => s + (p.valid ? p.value : 0), 0);

  const toggleWatch = (symbol) => setWatch((w) => (w.includes(symbol) ? w.filter((s) => s !== symbol) : [...w, symbol]));

  return (
    <div className="min-h-screen bg-[#0b0e14] text-slate-200 p-8">
      <div className="max-w-6xl mx-auto">
        <header className="flex items-center justify-between mb-6">
          <div>
            <h1 className="text-2xl font-bold text-white">Market watch</h1>
            <p className="text-sm text-slate-500">Simulated prices, updated every 1.5 seconds</p>
          </div>
          <button onClick={() => setPaused((p) => !p)} className={`px-4 py-2 rounded-lg text-sm font-medium ${paused ? 'bg-emerald-600 text-white' : 'bg-slate-800 text-slate-300'}`}>
            {paused ? '▶ Resume feed' : '❚❚ Pause feed'}
          </button>
        </header>

        <div className="grid grid-cols-3 gap-6">
          <section className="col-span-2 bg-slate-900/60 rounded-2xl p-6 border border-slate-800">
            <div className="flex items-end justify-between">
              <div>
                <p className="text-sm text-slate-400">{coin.name} · {coin.symbol}/USD</p>
                <p className="text-4xl font-bold text-white mt-1">{formatPrice(coin.last)}</p>
                <p className={`text-sm mt-1 ${coin.change >= 0 ? 'text-emerald-400' : 'text-rose-400'}`}>{coin.change >= 0 ? '▲' : '▼'} {Math.abs(coin.change).toFixed(2)}% over window</p>
              </div>
              <div className="flex bg-slate-800 rounded-lg p-1 text-xs">
                {Object.keys(RANGES).map((r) => (
                  <button key={r} onClick={() => setRange(r)} className={`px-3 py-1 rounded-md ${range === r ? 'bg-slate-600 text-white' : 'text-slate-400'}`}>{r}</button>
                ))}
              </div>
            </div>
            <div className="h-72 mt-6">
              <ResponsiveContainer width="100%" height="100%">
                <AreaChart data={chartData}>
                  <defs>
                    <linearGradient id="priceFill" x1="0" y1="0" x2="0" y2="1">
                      <stop offset="0%" stopColor={coin.color} stopOpacity={0.4} />
                      <stop offset="100%" stopColor={coin.color} stopOpacity={0} />
                    </linearGradient>
                  </defs>
                  <CartesianGrid stroke="#1e293b" vertical={false} />
                  <XAxis dataKey="i" hide />
                  <YAxis domain={['auto', 'auto']} tickFormatter={(v) => formatPrice(v)} tick={{ fontSize: 11, fill: '#64748b' }} width={80} orientation="right" />
                  <Tooltip formatter={(v) => formatPrice(v)} labelFormatter={() => ''} contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
                  <Area type="monotone" dataKey="price" stroke={coin.color} strokeWidth={2} fill="url(#priceFill)" isAnimationActive={false} />
                </AreaChart>
              </ResponsiveContainer>
            </div>
            <div className="grid grid-cols-3 gap-4 mt-4 text-sm">
              <div><p className="text-slate-500">Window high</p><p className="text-white">{formatPrice(coin.high)}</p></div>
              <div><p className="text-slate-500">Window low</p><p className="text-white">{formatPrice(coin.low)}</p></div>
              <div><p className="text-slate-500">Spread</p><p className="text-white">{(((coin.high - coin.low) / coin.low) * 100).toFixed(2)}%</p></div>
            </div>
          </section>

          <section className="bg-slate-900/60 rounded-2xl p-6 border border-slate-800">
            <h2 className="font-semibold text-white">Portfolio</h2>
            <p className="text-3xl font-bold text-white mt-2">{formatPrice(portfolioTotal)}</p>
            <ul className="mt-4 space-y-3">
              {portfolio.map((p) => (
                <li key={p.symbol} className="flex items-center gap-2 text-sm">
                  <span className="w-12 font-mono text-slate-400">{p.symbol}</span>
                  <input
                    value={p.qty}
                    onChange={(e) => setHoldings((h) => ({ ...h, [p.symbol]: e.target.value }))}
                    inputMode="decimal"
                    className={`w-24 bg-slate-800 rounded px-2 py-1 outline-none border ${p.valid ? 'border-transparent' : 'border-rose-500'}`}
                  />
                  <span className="ml-auto text-slate-300">{p.valid ? formatPrice(p.value) : 'invalid'}</span>
                  <button onClick={() => setHoldings((h) => { const next = { ...h }; delete next[p.symbol]; return next; })} className="text-slate-600 hover:text-rose-400" aria-label={`Remove ${p.symbol}`}>×</button>
                </li>
              ))}
            </ul>
            <select
              value=""
              onChange={(e) => e.target.value && setHoldings((h) => ({ ...h, [e.target.value]: '1' }))}
              className="mt-4 w-full bg-slate-800 rounded-lg px-3 py-2 text-sm"
            >
              <option value="">+ Add holding…</option>
              {COINS.filter((c) => !(c.symbol in holdings)).map((c) => <option key={c.symbol} value={c.symbol}>{c.name}</option>)}
            </select>
          </section>
        </div>

        <section className="mt-6 bg-slate-900/60 rounded-2xl border border-slate-800 overflow-hidden">
          <div className="flex items-center justify-between px-6 py-4">
            <h2 className="font-semibold text-white">All assets</h2>
            <select value={sortKey} onChange={(e) => setSortKey(e.target.value)} className="bg-slate-800 rounded-lg px-2 py-1 text-sm">
              <option value="change">Top movers</option>
              <option value="price">Price</option>
              <option value="name">Name</option>
            </select>
          </div>
          <table className="w-full text-sm">
            <thead className="text-slate-500 text-left">
              <tr><th className="px-6 py-2 font-medium">Watch</th><th className="font-medium">Asset</th><th className="font-medium text-right">Price</th><th className="font-medium text-right">Change</th><th className="font-medium pl-8">Trend</th></tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const prev = prevPrices[r.symbol];
                const flash = prev === undefined || prev === r.last ? '' : r.last > prev ? 'text-emerald-300' : 'text-rose-300';
                return (
                  <tr key={r.symbol} onClick={() => setSelected(r.symbol)} className={`border-t border-slate-800 cursor-pointer ${selected === r.symbol ? 'bg-slate-800/60' : 'hover:bg-slate-800/30'}`}>
                    <td className="px-6 py-2">
                      <button onClick={(e) => { e.stopPropagation(); toggleWatch(r.symbol); }} className={watch.includes(r.symbol) ? 'text-amber-400' : 'text-slate-600'} aria-label="Toggle watch">★</button>
                    </td>
                    <td className="py-2">
                      <span className="inline-flex items-center gap-2"><span className="w-2.5 h-2.5 rounded-full" style={{ background: r.color }} /><span className="text-white">{r.name}</span><span className="text-slate-500 font-mono text-xs">{r.symbol}</span></span>
                    </td>
                    <td className={`py-2 text-right font-mono transition-colors ${flash}`}>{formatPrice(r.last)}</td>
                    <td className={`py-2 text-right ${r.change >= 0 ? 'text-emerald-400' : 'text-rose-400'}`}>{r.change >= 0 ? '+' : ''}{r.change.toFixed(2)}%</td>
                    <td className="py-1 pl-8"><Sparkline data={r.spark} color={r.change >= 0 ? '#34d399' : '#fb7185'} /></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="px-6 py-3 text-xs text-slate-500 border-t border-slate-800">Watching {watch.length} of {COINS.length} assets. Prices are randomly generated for demonstration.</p>
        </section>
      </div>
    </div>
  );
}

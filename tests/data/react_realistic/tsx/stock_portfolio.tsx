// Stock Portfolio: simulated live ticker with price chart, watchlist, holdings table, and a buy/sell order form with cash checks
import { useEffect, useMemo, useReducer, useState } from 'react';
import type { FormEvent } from 'react';
import { LineChart, Line, XAxis, YAxis, Tooltip, CartesianGrid, ResponsiveContainer } from 'recharts';
import { TrendingUp, TrendingDown, Pause, Play, Briefcase } from 'lucide-react';

interface Quote {
  symbol: string;
  name: string;
  price: number;
  open: number;
  volatility: number;
  history: { t: number; price: number }[];
}

interface Holding {
  symbol: string;
  shares: number;
  costBasis: number; // total cost
}

interface Portfolio {
  cash: number;
  holdings: Record<string, Holding>;
  trades: Trade[];
}

interface Trade {
  id: number;
  side: 'buy' | 'sell';
  symbol: string;
  shares: number;
  price: number;
  at: string;
}

type PortfolioAction = { type: 'buy' | 'sell'; symbol: string; shares: number; price: number };

const UNIVERSE: Omit<Quote, 'history' | 'open'>[] = [
  { symbol: 'NOVA', name: 'Nova Robotics', price: 142.3, volatility: 0.012 },
  { symbol: 'GRNX', name: 'GreenX Energy', price: 58.9, volatility: 0.018 },
  { symbol: 'BYTE', name: 'Bytewise Cloud', price: 311.45, volatility: 0.009 },
  { symbol: 'MDCL', name: 'Medicalis', price: 87.2, volatility: 0.007 },
  { symbol: 'ORBT', name: 'Orbit Logistics', price: 23.75, volatility: 0.022 },
];

function initialQuotes(): Quote[] {
  return UNIVERSE.map((q, i) => {
    const history: { t: number; price: number }[] = [];
    let p = q.price;
    for (let t = 0; t < 40; t++) {
      p = p * (1 + Math.sin((t + i * 7) / 5) * q.volatility * 0.6);
      history.push({ t, price: Math.round(p * 100) / 100 });
    }
    const last = history[history.length - 1].price;
    return { ...q, price: last, open: history[0].price, history };
  });
}

function step(quotes: Quote[]): Quote[] {
  return quotes.map((q) => {
    const shock = (Math.random() - 0.49) * 2 * q.volatility;
    const price = Math.max(1, Math.round(q.price * (1 + shock) * 100) / 100);
    const t = (q.history[q.history.length - 1]?.t ?? 0) + 1;
    return { ...q, price, history: [...q.history.slice(-59), { t, price }] };
  });
}

function portfolioReducer(state: Portfolio, action: PortfolioAction): Portfolio {
  const cost = action.shares * action.price;
  const existing = state.holdings[action.symbol] ?? { symbol: action.symbol, shares: 0, costBasis: 0 };
  const trade: Trade = { id: Date.now(), side: action.type, symbol: action.symbol, shares: action.shares, price: action.price, at: new Date().toLocaleTimeString() };
  if (action.type === 'buy') {
    if (cost > state.cash) return state;
    return {
      cash: state.cash - cost,
      holdings: { ...state.holdings, [action.symbol]: { ...existing, shares: existing.shares + action.shares, costBasis: existing.costBasis + cost } },
      trades: [trade, ...state.trades],
    };
  }
  if (action.shares > existing.shares) return state;
  const remaining = existing.shares - action.shares;
  const holdings = { ...state.holdings };
  if (remaining === 0) delete holdings[action.symbol];
  else holdings[action.symbol] = { ...existing, shares: remaining, costBasis: (existing.costBasis / existing.shares) * remaining };
  return { cash: state.cash + cost, holdings, trades: [trade, ...state.trades] };
}

const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const pct = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)}%`;

export default function App() {
  const [quotes, setQuotes] = useState<Quote[]>(initialQuotes);
  const [live, setLive] = useState(true);
  const [selected, setSelected] = useState('NOVA');
  const [portfolio, dispatch] = useReducer(portfolioReducer, {
    cash: 10000,
    holdings: { BYTE: { symbol: 'BYTE', shares: 10, costBasis: 2950 } },
    trades: [],
  });
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const [sharesInput, setSharesInput] = useState('5');
  const [orderError, setOrderError] = useState('');

  useEffect(() => {
    if (!live) return;
    const id = setInterval(() => setQuotes(step), 1500);
    return () => clearInterval(id);
  }, [live]);

  const quote = quotes.find((q) => q.symbol === selected) ?? quotes[0];
  const change = ((quote.price - quote.open) / quote.open) * 100;

  const positions = useMemo(
    () =>
      Object.values(portfolio.holdings).map((h) => {
        const q = quotes.find((x) => x.symbol === h.symbol);
        const value = (q?.price ?? 0) * h.shares;
        return { ...h, price: q?.price ?? 0, value, gain: value - h.costBasis, gainPct: h.costBasis ? ((value - h.costBasis) / h.costBasis) * 100 : 0 };
      }),
    [portfolio.holdings, quotes],
  );

  const invested = positions.reduce((s, p) => s + p.value, 0);
  const totalGain = positions.reduce((s, p) => s + p.gain, 0);
  const owned = portfolio.holdings[quote.symbol]?.shares ?? 0;

  const shares = Number(sharesInput);
  const estimate = Number.isFinite(shares) ? shares * quote.price : 0;

  const placeOrder = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!Number.isInteger(shares) || shares <= 0) {
      setOrderError('Enter a whole number of shares');
      return;
    }
    if (side === 'buy' && estimate > portfolio.cash) {
      setOrderError(`Not enough cash: need ${usd(estimate)}`);
      return;
    }
    if (side === 'sell' && shares > owned) {
      setOrderError(`You only own ${owned} shares`);
      return;
    }
    dispatch({ type: side, symbol: quote.symbol, shares, price: quote.price });
    setOrderError('');
  };

  return (
    <div className="min-h-screen bg-[#0b1020] p-6 text-slate-100">
      <div className="mx-auto max-w-6xl">
        <header className="mb-6 flex items-center justify-between">
          <h1 className="flex items-center gap-2 text-xl font-bold">
            <Briefcase size={20} className="text-cyan-400" /> Paper Trader
          </h1>
          <div className="flex items-center gap-6 text-sm">
            <div>
              <div className="text-slate-400">Cash</div>
              <div className="font-semibold">{usd(portfolio.cash)}</div>
            </div>
            <div>
              <div className="text-slate-400">Invested</div>
              <div className="font-semibold">{usd(invested)}</div>
            </div>
            <div>
              <div className="text-slate-400">Total P/L</div>
              <div className={`font-semibold ${totalGain >= 0 ? 'text-emerald-400' : 'text-rose-400'}`}>{usd(totalGain)}</div>
            </div>
            <button onClick={() => setLive((l) => !l)} className="flex items-center gap-1 rounded-lg bg-slate-800 px-3 py-2 hover:bg-slate-700">
              {live ? <Pause size={14} /> : <Play size={14} />} {live ? 'Live' : 'Paused'}
            </button>
          </div>
        </header>

        <div className="grid grid-cols-4 gap-6">
          <aside className="space-y-2">
            {quotes.map((q) => {
              const c = ((q.price - q.open) / q.open) * 100;
              return (
                <button
                  key={q.symbol}
                  onClick={() => setSelected(q.symbol)}
                  className={`flex w-full items-center justify-between rounded-xl p-3 text-left ${q.symbol === selected ? 'bg-slate-700' : 'bg-slate-800/60 hover:bg-slate-800'}`}
                >
                  <div>
                    <div className="font-semibold">{q.symbol}</div>
                    <div className="text-xs text-slate-400">{q.name}</div>
                  </div>
                  <div className="text-right">
                    <div className="font-mono text-sm">{q.price.toFixed(2)}</div>
                    <div className={`text-xs ${c >= 0 ? 'text-emerald-400' : 'text-rose-400'}`}>{pct(c)}</div>
                  </div>
                </button>
              );
            })}
          </aside>

          <main className="col-span-2 rounded-2xl bg-slate-800/60 p-5">
            <div className="mb-4 flex items-end justify-between">
              <div>
                <div className="text-sm text-slate-400">{quote.name}</div>
                <div className="font-mono text-3xl font-bold">{usd(quote.price)}</div>
              </div>
              <div className={`flex items-center gap-1 text-sm font-semibold ${change >= 0 ? 'text-emerald-400' : 'text-rose-400'}`}>
                {change >= 0 ? <TrendingUp size={16} /> : <TrendingDown size={16} />} {pct(change)} today
              </div>
            </div>
            <div className="h-72">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={quote.history}>
                  <CartesianGrid stroke="#1e293b" />
                  <XAxis dataKey="t" hide />
                  <YAxis domain={['auto', 'auto']} tick={{ fill: '#94a3b8', fontSize: 11 }} width={50} />
                  <Tooltip contentStyle={{ background: '#0f172a', border: 'none' }} labelFormatter={() => quote.symbol} />
                  <Line type="monotone" dataKey="price" stroke={change >= 0 ? '#34d399' : '#fb7185'} strokeWidth={2} dot={false} isAnimationActive={false} />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </main>

          <form onSubmit={placeOrder} className="space-y-3 rounded-2xl bg-slate-800/60 p-5">
            <h2 className="font-semibold">Order {quote.symbol}</h2>
            <div className="flex rounded-lg bg-slate-900 p-1 text-sm">
              {(['buy', 'sell'] as const).map((s) => (
                <button
                  type="button"
                  key={s}
                  onClick={() => setSide(s)}
                  className={`flex-1 rounded-md py-1.5 capitalize ${side === s ? (s === 'buy' ? 'bg-emerald-500 text-slate-900' : 'bg-rose-500 text-white') : 'text-slate-400'}`}
                >
                  {s}
                </button>
              ))}
            </div>
            <label className="block text-sm">
              <span className="text-slate-400">Shares</span>
              <input
                value={sharesInput}
                onChange={(e) => {
                  setSharesInput(e.target.value);
                  setOrderError('');
                }}
                inputMode="numeric"
                className="mt-1 w-full rounded-lg bg-slate-900 px-3 py-2 font-mono outline-none focus:ring-1 focus:ring-cyan-400"
              />
            </label>
            <div className="flex justify-between text-sm text-slate-400">
              <span>Estimated</span>
              <span className="font-mono text-slate-100">{usd(estimate)}</span>
            </div>
            <div className="flex justify-between text-sm text-slate-400">
              <span>Owned</span>
              <span className="font-mono text-slate-100">{owned}</span>
            </div>
            {orderError && <p className="text-xs text-rose-400">{orderError}</p>}
            <button type="submit" className={`w-full rounded-lg py-2 font-semibold ${side === 'buy' ? 'bg-emerald-500 text-slate-900' : 'bg-rose-500 text-white'}`}>
              {side === 'buy' ? 'Buy' : 'Sell'} {quote.symbol}
            </button>
          </form>
        </div>

        <div className="mt-6 grid grid-cols-3 gap-6">
          <section className="col-span-2 rounded-2xl bg-slate-800/60 p-5">
            <h2 className="mb-3 font-semibold">Holdings</h2>
            {positions.length === 0 ? (
              <p className="text-sm text-slate-400">You do not own any shares yet.</p>
            ) : (
              <table className="w-full text-sm">
                <thead className="text-left text-slate-400">
                  <tr>
                    <th className="pb-2 font-medium">Symbol</th>
                    <th className="pb-2 text-right font-medium">Shares</th>
                    <th className="pb-2 text-right font-medium">Avg cost</th>
                    <th className="pb-2 text-right font-medium">Price</th>
                    <th className="pb-2 text-right font-medium">Value</th>
                    <th className="pb-2 text-right font-medium">P/L</th>
                  </tr>
                </thead>
                <tbody className="font-mono">
                  {positions.map((p) => (
                    <tr key={p.symbol} className="border-t border-slate-700">
                      <td className="py-2 font-sans font-semibold">{p.symbol}</td>
                      <td className="py-2 text-right">{p.shares}</td>
                      <td className="py-2 text-right">{(p.costBasis / p.shares).toFixed(2)}</td>
                      <td className="py-2 text-right">{p.price.toFixed(2)}</td>
                      <td className="py-2 text-right">{usd(p.value)}</td>
                      <td className={`py-2 text-right ${p.gain >= 0 ? 'text-emerald-400' : 'text-rose-400'}`}>{pct(p.gainPct)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section className="rounded-2xl bg-slate-800/60 p-5">
            <h2 className="mb-3 font-semibold">Recent trades</h2>
            <ul className="max-h-48 space-y-2 overflow-y-auto text-sm">
              {portfolio.trades.length === 0 && <li className="text-slate-400">No trades yet.</li>}
              {portfolio.trades.map((t) => (
                <li key={t.id} className="flex justify-between">
                  <span className={t.side === 'buy' ? 'text-emerald-400' : 'text-rose-400'}>
                    {t.side.toUpperCase()} {t.shares} {t.symbol}
                  </span>
                  <span className="text-slate-400">
                    @{t.price.toFixed(2)} · {t.at}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </div>
  );
}

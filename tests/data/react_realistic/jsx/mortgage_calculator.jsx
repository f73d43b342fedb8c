// Mortgage Calculator: loan inputs with validation, monthly payment breakdown, amortisation chart and yearly schedule with extra-payment comparison
import { useState, useMemo } from 'react';
import { AreaChart, Area, PieChart, Pie, Cell, XAxis, YAxis, Tooltip, Legend, ResponsiveContainer, CartesianGrid } from 'recharts';

const money = (n, digits = 0) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: digits, minimumFractionDigits: digits });

function monthlyPayment(principal, annualRate, years) {
  const n = years * 12;
  const r = annualRate / 100 / 12;
  if (r === 0) return principal / n;
  return (principal * r) / (1 - Math.pow(1 + r, -n));
}

function amortise(principal, annualRate, years, extra) {
  const r = annualRate / 100 / 12;
  const base = monthlyPayment(principal, annualRate, years);
  let balance = principal;
  let totalInterest = 0;
  let month = 0;
  const yearly = [];
  let yearInterest = 0;
  let yearPrincipal = 0;
  while (balance > 0.01 && month < years * 12) {
    const interest = balance * r;
    const principalPaid = Math.min(balance, base - interest + extra);
    balance -= principalPaid;
    totalInterest += interest;
    yearInterest += interest;
    yearPrincipal += principalPaid;
    month += 1;
    if (month % 12 === 0 || balance <= 0.01) {
      yearly.push({ year: Math.ceil(month / 12), interest: yearInterest, principal: yearPrincipal, balance: Math.max(0, balance) });
      yearInterest = 0;
      yearPrincipal = 0;
    }
  }
  return { months: month, totalInterest, yearly };
}

const FIELDS = [
  { key: 'price', label: 'Home price', prefix: '$', min: 10000, max: 10000000 },
  { key: 'down', label: 'Down payment', prefix: '$', min: 0, max: 10000000 },
  { key: 'rate', label: 'Interest rate', suffix: '%', min: 0, max: 25, step: 0.05 },
  { key: 'tax', label: 'Property tax / year', prefix: '$', min: 0, max: 100000 },
  { key: 'insurance', label: 'Insurance / year', prefix: '$', min: 0, max: 50000 },
  { key: 'extra', label: 'Extra payment / month', prefix: '$', min: 0, max: 20000 },
];

export default function App() {
  const [values, setValues] = useState({ price: '485000', down: '97000', rate: '6.25', tax: '4200', insurance: '1500', extra: '0' });
  const [years, setYears] = useState(30);
  const [showAll, setShowAll] = useState(false);

  const errors = useMemo(() => {
    const e = {};
    FIELDS.forEach((f) => {
      const v = Number(values[f.key]);
      if (values[f.key] === '' || Number.isNaN(v)) e[f.key] = 'Enter a number';
      else if (v < f.min || v > f.max) e[f.key] = `Between ${f.min.toLocaleString()} and ${f.max.toLocaleString()}`;
    });
    if (!e.down && !e.price && Number(values.down) >= Number(values.price)) e.down = 'Must be less than the price';
    return e;
  }, [values]);

  const valid = Object.keys(errors).length === 0;
  const num = (k) => Number(values[k]) || 0;
  const principal = Math.max(0, num('price') - num('down'));
  const downPct = num('price') ? (num('down') / num('price')) * 100 : 0;

  const result = useMemo(() => {
    if (!valid || principal <= 0) return null;
    const pi = monthlyPayment(principal, num('rate'), years);
    const pmi = downPct < 20 ? (principal * 0.007) / 12 : 0;
    const monthlyTax = num('tax') / 12;
    const monthlyIns = num('insurance') / 12;
    const base = amortise(principal, num('rate'), years, 0);
    const withExtra = amortise(principal, num('rate'), years, num('extra'));
    return { pi, pmi, monthlyTax, monthlyIns, total: pi + pmi + monthlyTax + monthlyIns, base, withExtra };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valid, principal, values, years, downPct]);

  const breakdown = result ? [
    { name: 'Principal & interest', value: result.pi, color: '#2563eb' },
    { name: 'Property tax', value: result.monthlyTax, color: '#f59e0b' },
    { name: 'Insurance', value: result.monthlyIns, color: '#10b981' },
    ...(result.pmi > 0 ? [{ name: 'PMI', value: result.pmi, color: '#ef4444' }] : []),
  ] : [];

  const schedule = result ? (showAll ? result.withExtra.yearly : result.withExtra.yearly.slice(0, 8)) : [];
  const savedInterest = result ? result.base.totalInterest - result.withExtra.totalInterest : 0;
  const monthsSaved = result ? result.base.months - result.withExtra.months : 0;

  return (
    <div className="min-h-screen bg-slate-100 p-8 text-slate-800">
      <div className="max-w-6xl mx-auto">
        <h1 className="text-3xl font-bold">Mortgage calculator</h1>
        <p className="text-slate-500 mb-6">Estimate your monthly payment and see how extra payments change the picture.</p>

        <div className="grid grid-cols-3 gap-6">
          <form className="bg-white rounded-2xl shadow-sm p-6 space-y-4" onSubmit={(e) => e.preventDefault()}>
            {FIELDS.map((f) => (
              <label key={f.key} className="block text-sm">
                <span className="font-medium text-slate-600">{f.label}</span>
                <div className={`mt-1 flex items-center border rounded-lg px-3 ${errors[f.key] ? 'border-rose-400' : 'border-slate-300'} focus-within:ring-2 focus-within:ring-blue-200`}>
                  {f.prefix && <span className="text-slate-400">{f.prefix}</span>}
                  <input value={values[f.key]} onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value.replace(/[^0-9.]/g, '') }))} inputMode="decimal" className="flex-1 py-2 px-1 outline-none" />
                  {f.suffix && <span className="text-slate-400">{f.suffix}</span>}
                </div>
                {f.key === 'down' && !errors.down && <span className="text-xs text-slate-500">{downPct.toFixed(1)}% of price{downPct < 20 ? ' · PMI applies below 20%' : ''}</span>}
                {errors[f.key] && <span className="text-xs text-rose-600">{errors[f.key]}</span>}
              </label>
            ))}
            <div>
              <span className="text-sm font-medium text-slate-600">Loan term</span>
              <div className="flex gap-2 mt-1">
                {[10, 15, 20, 30].map((y) => (
                  <button type="button" key={y} onClick={() => setYears(y)} className={`flex-1 py-2 rounded-lg text-sm border ${years === y ? 'bg-blue-600 border-blue-600 text-white' : 'border-slate-300'}`}>{y} yr</button>
                ))}
              </div>
            </div>
          </form>

          <div className="col-span-2 space-y-6">
            {!result ? (
              <div className="bg-white rounded-2xl shadow-sm p-10 text-center text-slate-400">Fix the highlighted fields to see your estimate.</div>
            ) : (
              <>
                <div className="bg-white rounded-2xl shadow-sm p-6 grid grid-cols-2 gap-6 items-center">
                  <div>
                    <p className="text-sm text-slate-500">Estimated monthly payment</p>
                    <p className="text-5xl font-extrabold text-blue-700 mt-1">{money(result.total)}</p>
                    <p className="text-sm text-slate-500 mt-2">Loan amount {money(principal)} over {years} years</p>
                    <ul className="mt-4 space-y-1 text-sm">
                      {breakdown.map((b) => (
                        <li key={b.name} className="flex justify-between"><span className="flex items-center gap-2"><span className="w-2.5 h-2.5 rounded-full" style={{ background: b.color }} />{b.name}</span><span>{money(b.value)}</span></li>
                      ))}
                    </ul>
                  </div>
                  <div className="h-56">
                    <ResponsiveContainer width="100%" height="100%">
                      <PieChart>
                        <Pie data={breakdown} dataKey="value" nameKey="name" innerRadius={55} outerRadius={90} paddingAngle={2}>
                          {breakdown.map((b) => <Cell key={b.name} fill={b.color} />)}
                        </Pie>
                        <Tooltip formatter={(v) => money(v)} />
                      </PieChart>
                    </ResponsiveContainer>
                  </div>
                </div>

                <div className="bg-white rounded-2xl shadow-sm p-6">
                  <div className="flex items-center justify-between mb-2">
                    <h2 className="font-semibold">Balance over time</h2>
                    {num('extra') > 0 && (
                      <p className="text-sm text-emerald-700">Extra payments save {money(savedInterest)} and {Math.floor(monthsSaved / 12)} yr {monthsSaved % 12} mo</p>
                    )}
                  </div>
                  <div className="h-60">
                    <ResponsiveContainer width="100%" height="100%">
                      <AreaChart data={result.withExtra.yearly}>
                        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                        <XAxis dataKey="year" tick={{ fontSize: 11 }} />
                        <YAxis tickFormatter={(v) => `${Math.round(v / 1000)}k`} tick={{ fontSize: 11 }} width={45} />
                        <Tooltip formatter={(v) => money(v)} labelFormatter={(l) => `Year ${l}`} />
                        <Legend />
                        <Area type="monotone" dataKey="balance" name="Remaining balance" stroke="#2563eb" fill="#bfdbfe" />
                        <Area type="monotone" dataKey="interest" name="Interest paid that year" stroke="#f59e0b" fill="#fde68a" />
                      </AreaChart>
                    </ResponsiveContainer>
                  </div>
                </div>

                <div className="bg-white rounded-2xl shadow-sm p-6">
                  <h2 className="font-semibold mb-3">Yearly schedule</h2>
                  <table className="w-full text-sm">
                    <thead className="text-slate-500 text-left"><tr><th className="py-1 font-medium">Year</th><th className="font-medium text-right">Principal</th><th className="font-medium text-right">Interest</th><th className="font-medium text-right">Balance</th></tr></thead>
                    <tbody>
                      {schedule.map((row) => (
                        <tr key={row.year} className="border-t border-slate-100">
                          <td className="py-1.5">{row.year}</td>
                          <td className="text-right">{money(row.principal)}</td>
                          <td className="text-right text-amber-700">{money(row.interest)}</td>
                          <td className="text-right font-medium">{money(row.balance)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  {result.withExtra.yearly.length > 8 && (
                    <button onClick={() => setShowAll((s) => !s)} className="mt-3 text-sm text-blue-600 hover:underline">{showAll ? 'Show fewer years' : `Show all ${result.withExtra.yearly.length} years`}</button>
                  )}
                  <p className="text-xs text-slate-400 mt-4">Total interest: {money(result.withExtra.totalInterest)}. Estimates only; your lender’s figures may differ.</p>
                </div>
              </>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}

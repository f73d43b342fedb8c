// Mortgage Calculator: loan inputs with validation, monthly payment breakdown, extra-payment savings and an amortization chart and table
import { useMemo, useState } from 'react';
import { AreaChart, Area, PieChart, Pie, Cell, XAxis, YAxis, Tooltip, Legend, CartesianGrid, ResponsiveContainer } from 'recharts';

interface Inputs {
  price: string;
  downPayment: string;
  rate: string;
  years: string;
  propertyTax: string;
  insurance: string;
  extra: string;
}

interface YearRow {
  year: number;
  principal: number;
  interest: number;
  balance: number;
}

interface Schedule {
  monthly: number;
  months: number;
  totalInterest: number;
  rows: YearRow[];
}

type Field = keyof Inputs;

const FIELDS: { key: Field; label: string; suffix: string; min: number; max: number }[] = [
  { key: 'price', label: 'Home price', suffix: '$', min: 10000, max: 10000000 },
  { key: 'downPayment', label: 'Down payment', suffix: '$', min: 0, max: 10000000 },
  { key: 'rate', label: 'Interest rate', suffix: '%', min: 0, max: 25 },
  { key: 'years', label: 'Term', suffix: 'yrs', min: 1, max: 40 },
  { key: 'propertyTax', label: 'Property tax / yr', suffix: '$', min: 0, max: 100000 },
  { key: 'insurance', label: 'Insurance / yr', suffix: '$', min: 0, max: 50000 },
  { key: 'extra', label: 'Extra payment / mo', suffix: '$', min: 0, max: 100000 },
];

function monthlyPayment(principal: number, annualRate: number, months: number): number {
  const r = annualRate / 100 / 12;
  if (r === 0) return principal / months;
  return (principal * r) / (1 - Math.pow(1 + r, -months));
}

function amortize(principal: number, annualRate: number, years: number, extra: number): Schedule {
  const months = years * 12;
  const base = monthlyPayment(principal, annualRate, months);
  const r = annualRate / 100 / 12;
  let balance = principal;
  let totalInterest = 0;
  let m = 0;
  const rows: YearRow[] = [];
  let yearPrincipal = 0;
  let yearInterest = 0;
  while (balance > 0.005 && m < months) {
    const interest = balance * r;
    const principalPart = Math.min(balance, base - interest + extra);
    balance -= principalPart;
    totalInterest += interest;
    yearPrincipal += principalPart;
    yearInterest += interest;
    m++;
    if (m % 12 === 0 || balance <= 0.005) {
      rows.push({ year: Math.ceil(m / 12), principal: Math.round(yearPrincipal), interest: Math.round(yearInterest), balance: Math.max(0, Math.round(balance)) });
      yearPrincipal = 0;
      yearInterest = 0;
    }
  }
  return { monthly: base, months: m, totalInterest, rows };
}

const money = (n: number, digits = 0) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: digits, minimumFractionDigits: digits });

export default function App() {
  const [inputs, setInputs] = useState<Inputs>({ price: '450000', downPayment: '90000', rate: '6.5', years: '30', propertyTax: '4800', insurance: '1500', extra: '0' });
  const [showTable, setShowTable] = useState(false);

  const errors = useMemo(() => {
    const out: Partial<Record<Field, string>> = {};
    FIELDS.forEach((f) => {
      const raw = inputs[f.key].trim();
      const n = Number(raw);
      if (raw === '' || Number.isNaN(n)) out[f.key] = 'Enter a number';
      else if (n < f.min || n > f.max) out[f.key] = `Between ${f.min.toLocaleString()} and ${f.max.toLocaleString()}`;
    });
    if (!out.downPayment && !out.price && Number(inputs.downPayment) >= Number(inputs.price)) out.downPayment = 'Must be less than the price';
    return out;
  }, [inputs]);

  const valid = Object.keys(errors).length === 0;

  const result = useMemo(() => {
    if (!valid) return null;
    const principal = Number(inputs.price) - Number(inputs.downPayment);
    const rate = Number(inputs.rate);
    const years = Number(inputs.years);
    const withExtra = amortize(principal, rate, years, Number(inputs.extra));
    const baseline = amortize(principal, rate, years, 0);
    const taxMonthly = Number(inputs.propertyTax) / 12;
    const insuranceMonthly = Number(inputs.insurance) / 12;
    const ltv = (principal / Number(inputs.price)) * 100;
    const pmi = ltv > 80 ? (principal * 0.005) / 12 : 0;
    return {
      principal,
      ltv,
      withExtra,
      baseline,
      taxMonthly,
      insuranceMonthly,
      pmi,
      total: withExtra.monthly + taxMonthly + insuranceMonthly + pmi + Number(inputs.extra),
      interestSaved: baseline.totalInterest - withExtra.totalInterest,
      monthsSaved: baseline.months - withExtra.months,
    };
  }, [inputs, valid]);

  const breakdown = result
    ? [
        { name: 'Principal & interest', value: Math.round(result.withExtra.monthly), color: '#2563eb' },
        { name: 'Property tax', value: Math.round(result.taxMonthly), color: '#f59e0b' },
        { name: 'Insurance', value: Math.round(result.insuranceMonthly), color: '#10b981' },
        ...(result.pmi > 0 ? [{ name: 'PMI', value: Math.round(result.pmi), color: '#ef4444' }] : []),
      ]
    : [];

  return (
    <div className="min-h-screen bg-slate-50 p-8">
      <div className="mx-auto max-w-6xl">
        <h1 className="text-3xl font-bold text-slate-900">Mortgage calculator</h1>
        <p className="mb-6 text-slate-500">Estimate your monthly payment and see how extra payments shorten the loan.</p>

        <div className="grid grid-cols-3 gap-6">
          <section className="space-y-4 rounded-2xl bg-white p-6 shadow-sm">
            {FIELDS.map((f) => (
              <label key={f.key} className="block">
                <span className="mb-1 flex justify-between text-sm font-medium text-slate-700">
                  {f.label}
                  {f.key === 'downPayment' && !errors.price && !errors.downPayment && (
                    <span className="text-xs font-normal text-slate-400">{((Number(inputs.downPayment) / Number(inputs.price)) * 100).toFixed(1)}%</span>
                  )}
                </span>
                <div className={`flex items-center rounded-lg border px-3 ${errors[f.key] ? 'border-red-400 bg-red-50' : 'border-slate-300'}`}>
                  {f.suffix === '$' && <span className="text-slate-400">$</span>}
                  <input
                    value={inputs[f.key]}
                    onChange={(e) => setInputs((prev) => ({ ...prev, [f.key]: e.target.value.replace(/[^\d.]/g, '') }))}
                    inputMode="decimal"
                    className="w-full bg-transparent px-2 py-2 text-sm outline-none"
                  />
                  {f.suffix !== '$' && <span className="text-sm text-slate-400">{f.suffix}</span>}
                </div>
                {errors[f.key] && <span className="text-xs text-red-600">{errors[f.key]}</span>}
              </label>
            ))}
            <div className="flex gap-2 pt-2">
              {[15, 20, 30].map((y) => (
                <button
                  key={y}
                  onClick={() => setInputs((p) => ({ ...p, years: String(y) }))}
                  className={`flex-1 rounded-lg py-1.5 text-sm ${inputs.years === String(y) ? 'bg-blue-600 text-white' : 'bg-slate-100 text-slate-600'}`}
                >
                  {y}-year
                </button>
              ))}
            </div>
          </section>

          <section className="col-span-2 space-y-6">
            {!result ? (
              <div className="rounded-2xl bg-white p-10 text-center text-slate-500 shadow-sm">Fix the highlighted inputs to see your estimate.</div>
            ) : (
              <>
                <div className="grid grid-cols-2 gap-6">
                  <div className="rounded-2xl bg-blue-600 p-6 text-white shadow-sm">
                    <div className="text-sm opacity-80">Estimated monthly payment</div>
                    <div className="mt-1 text-4xl font-bold">{money(result.total)}</div>
                    <div className="mt-4 grid grid-cols-2 gap-2 text-sm">
                      <div>
                        <div className="opacity-70">Loan amount</div>
                        <div className="font-semibold">{money(result.principal)}</div>
                      </div>
                      <div>
                        <div className="opacity-70">Total interest</div>
                        <div className="font-semibold">{money(result.withExtra.totalInterest)}</div>
                      </div>
                      <div>
                        <div className="opacity-70">Payoff</div>
                        <div className="font-semibold">
                          {Math.floor(result.withExtra.months / 12)} yrs {result.withExtra.months % 12} mo
                        </div>
                      </div>
                      <div>
                        <div className="opacity-70">Loan-to-value</div>
                        <div className="font-semibold">{result.ltv.toFixed(1)}%</div>
                      </div>
                    </div>
                    {result.interestSaved > 1 && (
                      <div className="mt-4 rounded-lg bg-white/15 p-3 text-sm">
                        Extra payments save {money(result.interestSaved)} and {Math.floor(result.monthsSaved / 12)} yrs {result.monthsSaved % 12} mo.
                      </div>
                    )}
                  </div>
                  <div className="rounded-2xl bg-white p-4 shadow-sm">
                    <div className="h-60">
                      <ResponsiveContainer width="100%" height="100%">
                        <PieChart>
                          <Pie data={breakdown} dataKey="value" nameKey="name" innerRadius={50} outerRadius={80}>
                            {breakdown.map((b) => (
                              <Cell key={b.name} fill={b.color} />
                            ))}
                          </Pie>
                          <Tooltip formatter={(v) => money(Number(v))} />
                          <Legend iconSize={8} wrapperStyle={{ fontSize: 12 }} />
                        </PieChart>
                      </ResponsiveContainer>
                    </div>
                  </div>
                </div>

                <div className="rounded-2xl bg-white p-6 shadow-sm">
                  <div className="mb-3 flex items-center justify-between">
                    <h2 className="font-semibold">Balance over time</h2>
                    <button onClick={() => setShowTable((s) => !s)} className="text-sm text-blue-600 hover:underline">
                      {showTable ? 'Hide' : 'Show'} yearly table
                    </button>
                  </div>
                  <div className="h-64">
                    <ResponsiveContainer width="100%" height="100%">
                      <AreaChart data={result.withExtra.rows}>
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis dataKey="year" tick={{ fontSize: 11 }} />
                        <YAxis tick={{ fontSize: 11 }} width={70} tickFormatter={(v: number) => `$${Math.round(v / 1000)}k`} />
                        <Tooltip formatter={(v) => money(Number(v))} labelFormatter={(l) => `Year ${l}`} />
                        <Legend />
                        <Area type="monotone" dataKey="balance" name="Balance" stroke="#2563eb" fill="#bfdbfe" />
                        <Area type="monotone" dataKey="interest" name="Interest paid" stroke="#f59e0b" fill="#fde68a" />
                      </AreaChart>
                    </ResponsiveContainer>
                  </div>
                  {showTable && (
                    <div className="mt-4 max-h-64 overflow-y-auto">
                      <table className="w-full text-right text-sm">
                        <thead className="sticky top-0 bg-white text-slate-500">
                          <tr>
                            <th className="py-1 text-left font-medium">Year</th>
                            <th className="py-1 font-medium">Principal</th>
                            <th className="py-1 font-medium">Interest</th>
                            <th className="py-1 font-medium">Balance</th>
                          </tr>
                        </thead>
                        <tbody>
                          {result.withExtra.rows.map((r) => (
                            <tr key={r.year} className="border-t border-slate-100">
                              <td className="py-1 text-left">{r.year}</td>
                              <td className="py-1">{money(r.principal)}</td>
                              <td className="py-1">{money(r.interest)}</td>
                              <td className="py-1">{money(r.balance)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  )}
                </div>
              </>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}

// Expense Tracker: personal finance log with add-expense form, category budgets, monthly filter, pie and bar charts
import { useMemo, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { PieChart, Pie, Cell, BarChart, Bar, XAxis, YAxis, Tooltip, CartesianGrid, ResponsiveContainer } from 'recharts';
import { Wallet, Plus, Trash2, ArrowDownCircle, ArrowUpCircle, Filter } from 'lucide-react';

type Category = 'Housing' | 'Food' | 'Transport' | 'Fun' | 'Health' | 'Utilities' | 'Income';

interface Transaction {
  id: number;
  date: string;
  description: string;
  category: Category;
  amount: number; // negative = expense, positive = income
}

interface FormState {
  description: string;
  amount: string;
  date: string;
  category: Category;
  kind: 'expense' | 'income';
}

const CATEGORY_COLORS: Record<Category, string> = {
  Housing: '#6366f1',
  Food: '#f97316',
  Transport: '#0ea5e9',
  Fun: '#ec4899',
  Health: '#10b981',
  Utilities: '#eab308',
  Income: '#22c55e',
};

const BUDGETS: Partial<Record<Category, number>> = {
  Housing: 1500,
  Food: 500,
  Transport: 200,
  Fun: 250,
  Health: 120,
  Utilities: 180,
};

const EXPENSE_CATEGORIES = (Object.keys(CATEGORY_COLORS) as Category[]).filter((c) => c !== 'Income');

function seed(): Transaction[] {
  const rows: [string, string, Category, number][] = [
    ['2024-04-01', 'Rent', 'Housing', -1450],
    ['2024-04-02', 'Salary', 'Income', 4200],
    ['2024-04-04', 'Groceries', 'Food', -86.4],
    ['2024-04-07', 'Metro card', 'Transport', -64],
    ['2024-04-11', 'Concert tickets', 'Fun', -120],
    ['2024-04-15', 'Electricity', 'Utilities', -72.3],
    ['2024-04-18', 'Pharmacy', 'Health', -23.9],
    ['2024-04-22', 'Dinner out', 'Food', -58],
    ['2024-05-01', 'Rent', 'Housing', -1450],
    ['2024-05-02', 'Salary', 'Income', 4200],
    ['2024-05-03', 'Groceries', 'Food', -112.75],
    ['2024-05-09', 'Bike repair', 'Transport', -45],
    ['2024-05-12', 'Streaming bundle', 'Fun', -21.99],
    ['2024-05-14', 'Internet', 'Utilities', -49],
    ['2024-05-19', 'Freelance project', 'Income', 650],
    ['2024-05-21', 'Groceries', 'Food', -94.2],
    ['2024-05-26', 'Gym membership', 'Health', -39],
    ['2024-05-28', 'Weekend trip', 'Fun', -210],
  ];
  return rows.map(([date, description, category, amount], i) => ({ id: i + 1, date, description, category, amount }));
}

const currency = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

const EMPTY_FORM: FormState = { description: '', amount: '', date: '2024-05-30', category: 'Food', kind: 'expense' };

export default function App() {
  const [transactions, setTransactions] = useState<Transaction[]>(seed);
  const [form, setForm] = useState<FormState>(EMPTY_FORM);
  const [errors, setErrors] = useState<Partial<Record<keyof FormState, string>>>({});
  const [month, setMonth] = useState('2024-05');
  const [categoryFilter, setCategoryFilter] = useState<Category | 'All'>('All');

  const months = useMemo(() => Array.from(new Set(transactions.map((t) => t.date.slice(0, 7)))).sort(), [transactions]);

  const inMonth = useMemo(() => transactions.filter((t) => month === 'all' || t.date.startsWith(month)), [transactions, month]);

  const listed = useMemo(
    () => inMonth.filter((t) => categoryFilter === 'All' || t.category === categoryFilter).sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id),
    [inMonth, categoryFilter],
  );

  const summary = useMemo(() => {
    const income = inMonth.filter((t) => t.amount > 0).reduce((s, t) => s + t.amount, 0);
    const spent = inMonth.filter((t) => t.amount < 0).reduce((s, t) => s - t.amount, 0);
    const byCategory = EXPENSE_CATEGORIES.map((c) => ({
      name: c,
      value: Math.round(inMonth.filter((t) => t.category === c).reduce((s, t) => s - t.amount, 0) * 100) / 100,
      budget: BUDGETS[c] ?? 0,
    })).filter((c) => c.value > 0 || c.budget > 0);
    return { income, spent, net: income - spent, savingsRate: income ? ((income - spent) / income) * 100 : 0, byCategory };
  }, [inMonth]);

  const handleChange = (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const { name, value } = e.target;
    setForm((f) => ({ ...f, [name]: value }));
    setErrors((er) => ({ ...er, [name]: undefined }));
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const found: Partial<Record<keyof FormState, string>> = {};
    const amount = Number(form.amount);
    if (!form.description.trim()) found.description = 'Add a short description';
    if (!form.amount || Number.isNaN(amount) || amount <= 0) found.amount = 'Amount must be a positive number';
    else if (amount > 100000) found.amount = 'That seems too large';
    if (!form.date) found.date = 'Pick a date';
    setErrors(found);
    if (Object.keys(found).length) return;
    const tx: Transaction = {
      id: Date.now(),
      date: form.date,
      description: form.description.trim(),
      category: form.kind === 'income' ? 'Income' : form.category,
      amount: form.kind === 'income' ? amount : -amount,
    };
    setTransactions((list) => [...list, tx]);
    setForm({ ...EMPTY_FORM, date: form.date, category: form.category });
  };

  return (
    <div className="min-h-screen bg-neutral-100 p-6">
      <div className="mx-auto max-w-6xl">
        <header className="mb-6 flex items-center justify-between">
          <h1 className="flex items-center gap-2 text-2xl font-bold text-neutral-900">
            <Wallet className="text-emerald-600" /> Spending
          </h1>
          <select value={month} onChange={(e) => setMonth(e.target.value)} className="rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm">
            <option value="all">All months</option>
            {months.map((m) => (
              <option key={m} value={m}>
                {new Date(`${m}-01T00:00:00`).toLocaleDateString('en-US', { month: 'long', year: 'numeric' })}
              </option>
            ))}
          </select>
        </header>

        <div className="mb-6 grid grid-cols-4 gap-4">
          <div className="rounded-2xl bg-white p-5 shadow-sm">
            <div className="flex items-center gap-2 text-sm text-neutral-500">
              <ArrowUpCircle size={16} className="text-emerald-500" /> Income
            </div>
            <div className="mt-2 text-2xl font-bold">{currency(summary.income)}</div>
          </div>
          <div className="rounded-2xl bg-white p-5 shadow-sm">
            <div className="flex items-center gap-2 text-sm text-neutral-500">
              <ArrowDownCircle size={16} className="text-rose-500" /> Spent
            </div>
            <div className="mt-2 text-2xl font-bold">{currency(summary.spent)}</div>
          </div>
          <div className="rounded-2xl bg-white p-5 shadow-sm">
            <div className="text-sm text-neutral-500">Net</div>
            <div className={`mt-2 text-2xl font-bold ${summary.net >= 0 ? 'text-emerald-600' : 'text-rose-600'}`}>{currency(summary.net)}</div>
          </div>
          <div className="rounded-2xl bg-white p-5 shadow-sm">
            <div className="text-sm text-neutral-500">Savings rate</div>
            <div className="mt-2 text-2xl font-bold">{summary.savingsRate.toFixed(1)}%</div>
          </div>
        </div>

        <div className="grid grid-cols-3 gap-6">
          <form onSubmit={submit} className="space-y-3 rounded-2xl bg-white p-5 shadow-sm" noValidate>
            <h2 className="font-semibold">Add transaction</h2>
            <div className="flex rounded-lg bg-neutral-100 p-1 text-sm">
              {(['expense', 'income'] as const).map((k) => (
                <button
                  type="button"
                  key={k}
                  onClick={() => setForm((f) => ({ ...f, kind: k }))}
                  className={`flex-1 rounded-md py-1.5 capitalize ${form.kind === k ? 'bg-white font-medium shadow-sm' : 'text-neutral-500'}`}
                >
                  {k}
                </button>
              ))}
            </div>
            <div>
              <input name="description" value={form.description} onChange={handleChange} placeholder="Description" className="w-full rounded-lg border border-neutral-300 px-3 py-2 text-sm" />
              {errors.description && <p className="mt-1 text-xs text-rose-600">{errors.description}</p>}
            </div>
            <div>
              <input name="amount" inputMode="decimal" value={form.amount} onChange={handleChange} placeholder="Amount" className="w-full rounded-lg border border-neutral-300 px-3 py-2 text-sm" />
              {errors.amount && <p className="mt-1 text-xs text-rose-600">{errors.amount}</p>}
            </div>
            <input name="date" type="date" value={form.date} onChange={handleChange} className="w-full rounded-lg border border-neutral-300 px-3 py-2 text-sm" />
            {form.kind === 'expense' && (
              <select name="category" value={form.category} onChange={handleChange} className="w-full rounded-lg border border-neutral-300 px-3 py-2 text-sm">
                {EXPENSE_CATEGORIES.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            )}
            <button type="submit" className="flex w-full items-center justify-center gap-1 rounded-lg bg-emerald-600 py-2 text-sm font-medium text-white hover:bg-emerald-700">
              <Plus size={16} /> Add
            </button>
          </form>

          <div className="rounded-2xl bg-white p-5 shadow-sm">
            <h2 className="mb-2 font-semibold">Where it went</h2>
            <div className="h-56">
              <ResponsiveContainer width="100%" height="100%">
                <PieChart>
                  <Pie data={summary.byCategory.filter((c) => c.value > 0)} dataKey="value" nameKey="name" outerRadius={85} innerRadius={45}>
                    {summary.byCategory
                      .filter((c) => c.value > 0)
                      .map((c) => (
                        <Cell key={c.name} fill={CATEGORY_COLORS[c.name]} />
                      ))}
                  </Pie>
                  <Tooltip formatter={(v) => currency(Number(v))} />
                </PieChart>
              </ResponsiveContainer>
            </div>
            <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
              {summary.byCategory.map((c) => (
                <span key={c.name} className="flex items-center gap-1">
                  <span className="h-2 w-2 rounded-full" style={{ backgroundColor: CATEGORY_COLORS[c.name] }} />
                  {c.name}
                </span>
              ))}
            </div>
          </div>

          <div className="rounded-2xl bg-white p-5 shadow-sm">
            <h2 className="mb-2 font-semibold">Budget vs actual</h2>
            <div className="h-64">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={summary.byCategory} layout="vertical" margin={{ left: 10 }}>
                  <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                  <XAxis type="number" tick={{ fontSize: 11 }} />
                  <YAxis type="category" dataKey="name" tick={{ fontSize: 11 }} width={70} />
                  <Tooltip formatter={(v) => currency(Number(v))} />
                  <Bar dataKey="budget" fill="#e5e7eb" name="Budget" />
                  <Bar dataKey="value" name="Spent">
                    {summary.byCategory.map((c) => (
                      <Cell key={c.name} fill={c.value > c.budget ? '#ef4444' : CATEGORY_COLORS[c.name]} />
                    ))}
                  </Bar>
                </BarChart>
              </ResponsiveContainer>
            </div>
          </div>
        </div>

        <section className="mt-6 rounded-2xl bg-white p-5 shadow-sm">
          <div className="mb-3 flex items-center justify-between">
            <h2 className="font-semibold">Transactions ({listed.length})</h2>
            <label className="flex items-center gap-2 text-sm text-neutral-500">
              <Filter size={14} />
              <select value={categoryFilter} onChange={(e) => setCategoryFilter(e.target.value as Category | 'All')} className="rounded border border-neutral-300 px-2 py-1">
                <option>All</option>
                {(Object.keys(CATEGORY_COLORS) as Category[]).map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            </label>
          </div>
          <table className="w-full text-sm">
            <thead className="text-left text-neutral-500">
              <tr>
                <th className="py-2 font-medium">Date</th>
                <th className="py-2 font-medium">Description</th>
                <th className="py-2 font-medium">Category</th>
                <th className="py-2 text-right font-medium">Amount</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {listed.map((t) => (
                <tr key={t.id} className="border-t border-neutral-100">
                  <td className="py-2 text-neutral-500">{t.date}</td>
                  <td className="py-2">{t.description}</td>
                  <td className="py-2">
                    <span className="rounded-full px-2 py-0.5 text-xs text-white" style={{ backgroundColor: CATEGORY_COLORS[t.category] }}>
                      {t.category}
                    </span>
                  </td>
                  <td className={`py-2 text-right font-medium ${t.amount > 0 ? 'text-emerald-600' : 'text-neutral-900'}`}>{currency(t.amount)}</td>
                  <td className="py-2 text-right">
                    <button onClick={() => setTransactions((list) => list.filter((x) => x.id !== t.id))} className="text-neutral-400 hover:text-rose-500" aria-label="Delete">
                      <Trash2 size={14} />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {listed.length === 0 && <p className="py-6 text-center text-sm text-neutral-400">No transactions for this filter.</p>}
        </section>
      </div>
    </div>
  );
}

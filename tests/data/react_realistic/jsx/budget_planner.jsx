// Monthly Budget Planner: income and expense entries by category, budget limits, spending pie chart and savings goal progress
import { useState, useMemo, useReducer, useEffect } from 'react';
import { PieChart, Pie, Cell, Tooltip, ResponsiveContainer, BarChart, Bar, XAxis, YAxis, Legend } from 'recharts';
import { MdHome, MdRestaurant, MdDirectionsCar, MdLocalHospital, MdMovie, MdShoppingCart, MdSavings, MdDelete, MdAdd } from 'react-icons/md';

const CATEGORIES = {
  housing: { label: 'Housing', icon: MdHome, color: '#6366f1', limit: 1500 },
  food: { label: 'Food', icon: MdRestaurant, color: '#f59e0b', limit: 600 },
  transport: { label: 'Transport', icon: MdDirectionsCar, color: '#0ea5e9', limit: 300 },
  health: { label: 'Health', icon: MdLocalHospital, color: '#ef4444', limit: 200 },
  fun: { label: 'Entertainment', icon: MdMovie, color: '#a855f7', limit: 250 },
  shopping: { label: 'Shopping', icon: MdShoppingCart, color: '#10b981', limit: 300 },
};

const INITIAL = {
  income: [
    { id: 'i1', label: 'Salary', amount: 4200 },
    { id: 'i2', label: 'Freelance design', amount: 650 },
  ],
  expenses: [
    { id: 'e1', label: 'Rent', category: 'housing', amount: 1400, date: '2024-06-01' },
    { id: 'e2', label: 'Groceries', category: 'food', amount: 312.4, date: '2024-06-04' },
    { id: 'e3', label: 'Metro pass', category: 'transport', amount: 85, date: '2024-06-02' },
    { id: 'e4', label: 'Dinner with friends', category: 'food', amount: 96.5, date: '2024-06-08' },
    { id: 'e5', label: 'Cinema', category: 'fun', amount: 28, date: '2024-06-09' },
    { id: 'e6', label: 'Running shoes', category: 'shopping', amount: 129.99, date: '2024-06-11' },
    { id: 'e7', label: 'Pharmacy', category: 'health', amount: 42.3, date: '2024-06-12' },
    { id: 'e8', label: 'Electricity', category: 'housing', amount: 88, date: '2024-06-15' },
  ],
  goal: { name: 'Emergency fund', target: 6000, saved: 2350 },
};

function reducer(state, action) {
  switch (action.type) {
    case 'addExpense':
      return { ...state, expenses: [{ ...action.entry, id: `e${Date.now()}` }, ...state.expenses] };
    case 'addIncome':
      return { ...state, income: [...state.income, { ...action.entry, id: `i${Date.now()}` }] };
    case 'removeExpense':
      return { ...state, expenses: state.expenses.filter((e) => e.id !== action.id) };
    case 'removeIncome':
      return { ...state, income: state.income.filter((e) => e.id !== action.id) };
    case 'contribute':
      return { ...state, goal: { ...state.goal, saved: Math.min(state.goal.target, state.goal.saved + action.amount) } };
    default:
      return state;
  }
}

const money = (n) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

function usePersisted(key, reducerFn, initial) {
  const [state, dispatch] = useReducer(reducerFn, initial, (init) => {
    try {
      const saved = window.localStorage.getItem(key);
      return saved ? JSON.parse(saved) : init;
    } catch {
      return init;
    }
  });
  useEffect(() => {
    try {
      window.localStorage.setItem(key, JSON.stringify(state));
    } catch {
      // persistence is best-effort
    }
  }, [key, state]);
  return [state, dispatch];
}

export default function App() {
  const [state, dispatch] = usePersisted('budget-planner', reducer, INITIAL);
  const [form, setForm] = useState({ kind: 'expense', label: '', amount: '', category: 'food', date: new Date().toISOString().slice(0, 10) });
  const [errors, setErrors] = useState({});
  const [contribution, setContribution] = useState('100');
  const [categoryFilter, setCategoryFilter] = useState('all');

  const totalIncome = useMemo(() => state.income.reduce((s, i) => s + i.amount, 0), [state.income]);
  const totalSpent = useMemo(() => state.expenses.reduce((s, e) => s + e.amount, 0), [state.expenses]);
  const remaining = totalIncome - totalSpent;

  const byCategory = useMemo(() => Object.entries(CATEGORIES).map(([key, meta]) => {
    const spent = state.expenses.filter((e) => e.category === key).reduce((s, e) => s + e.amount, 0);
    return { key, name: meta.label, spent: Math.round(spent * 100) / 100, limit: meta.limit, color: meta.color };
  }), [state.expenses]);

  const pieData = byCategory.filter((c) => c.spent > 0);
  const overBudget = byCategory.filter((c) => c.spent > c.limit);
  const visibleExpenses = state.expenses.filter((e) => categoryFilter === 'all' || e.category === categoryFilter);
  const goalPct = Math.round((state.goal.saved / state.goal.target) * 100);

  const submit = (e) => {
    e.preventDefault();
    const found = {};
    const amount = Number(form.amount);
    if (!form.label.trim()) found.label = 'Add a description';
    if (!form.amount || Number.isNaN(amount) || amount <= 0) found.amount = 'Amount must be greater than 0';
    else if (amount > 100000) found.amount = 'That seems too large';
    if (form.kind === 'expense' && !form.date) found.date = 'Pick a date';
    setErrors(found);
    if (Object.keys(found).length) return;
    if (form.kind === 'expense') {
      dispatch({ type: 'addExpense', entry: { label: form.label.trim(), amount, category: form.category, date: form.date } });
    } else {
      dispatch({ type: 'addIncome', entry: { label: form.label.trim(), amount } });
    }
    setForm((f) => ({ ...f, label: '', amount: '' }));
  };

  const contribute = () => {
    const n = Number(contribution);
    if (n > 0 && n <= remaining) dispatch({ type: 'contribute', amount: n });
  };

  return (
    <div className="min-h-screen bg-emerald-50/50 text-slate-800">
      <div className="max-w-6xl mx-auto p-8">
        <header className="mb-8">
          <h1 className="text-3xl font-bold">June budget</h1>
          <p className="text-slate-500">Know where every dollar goes.</p>
        </header>

        <div className="grid grid-cols-3 gap-4 mb-6">
          <div className="bg-white rounded-2xl p-5 shadow-sm">
            <p className="text-sm text-slate-500">Income</p>
            <p className="text-3xl font-bold text-emerald-600">{money(totalIncome)}</p>
          </div>
          <div className="bg-white rounded-2xl p-5 shadow-sm">
            <p className="text-sm text-slate-500">Spent</p>
            <p className="text-3xl font-bold text-rose-600">{money(totalSpent)}</p>
            <div className="h-2 bg-slate-100 rounded-full mt-3"><div className="h-2 rounded-full bg-rose-400" style={{ width: `${Math.min(100, (totalSpent / (totalIncome || 1)) * 100)}%` }} /></div>
          </div>
          <div className="bg-white rounded-2xl p-5 shadow-sm">
            <p className="text-sm text-slate-500">Left to spend</p>
            <p className={`text-3xl font-bold ${remaining < 0 ? 'text-rose-600' : 'text-slate-800'}`}>{money(remaining)}</p>
            {overBudget.length > 0 && <p className="text-xs text-amber-600 mt-2">Over budget in {overBudget.map((c) => c.name).join(', ')}</p>}
          </div>
        </div>

        <div className="grid grid-cols-3 gap-6">
          <div className="col-span-2 space-y-6">
            <form onSubmit={submit} className="bg-white rounded-2xl p-5 shadow-sm" noValidate>
              <div className="flex items-center gap-2 mb-4">
                {['expense', 'income'].map((k) => (
                  <button type="button" key={k} onClick={() => setForm((f) => ({ ...f, kind: k }))} className={`px-4 py-1.5 rounded-full text-sm capitalize ${form.kind === k ? 'bg-slate-900 text-white' : 'bg-slate-100'}`}>{k}</button>
                ))}
              </div>
              <div className="grid grid-cols-4 gap-3">
                <div className="col-span-2">
                  <input value={form.label} onChange={(e) => setForm({ ...form, label: e.target.value })} placeholder="Description" className={`w-full border rounded-lg px-3 py-2 ${errors.label ? 'border-rose-400' : 'border-slate-200'}`} />
                  {errors.label && <p className="text-xs text-rose-600 mt-1">{errors.label}</p>}
                </div>
                <div>
                  <input value={form.amount} onChange={(e) => setForm({ ...form, amount: e.target.value })} placeholder="Amount" inputMode="decimal" className={`w-full border rounded-lg px-3 py-2 ${errors.amount ? 'border-rose-400' : 'border-slate-200'}`} />
                  {errors.amount && <p className="text-xs text-rose-600 mt-1">{errors.amount}</p>}
                </div>
                <button className="bg-emerald-600 hover:bg-emerald-700 text-white rounded-lg flex items-center justify-center gap-1 h-10"><MdAdd className="w-5 h-5" /> Add</button>
                {form.kind === 'expense' && (
                  <>
                    <select value={form.category} onChange={(e) => setForm({ ...form, category: e.target.value })} className="col-span-2 border border-slate-200 rounded-lg px-3 py-2">
                      {Object.entries(CATEGORIES).map(([k, c]) => <option key={k} value={k}>{c.label}</option>)}
                    </select>
                    <input type="date" value={form.date} onChange={(e) => setForm({ ...form, date: e.target.value })} className="col-span-2 border border-slate-200 rounded-lg px-3 py-2" />
                  </>
                )}
              </div>
            </form>

            <div className="bg-white rounded-2xl p-5 shadow-sm">
              <div className="flex items-center justify-between mb-3">
                <h2 className="font-semibold">Transactions</h2>
                <select value={categoryFilter} onChange={(e) => setCategoryFilter(e.target.value)} className="text-sm border border-slate-200 rounded-lg px-2 py-1">
                  <option value="all">All categories</option>
                  {Object.entries(CATEGORIES).map(([k, c]) => <option key={k} value={k}>{c.label}</option>)}
                </select>
              </div>
              <ul className="divide-y divide-slate-100 max-h-72 overflow-y-auto">
                {state.income.map((i) => (
                  <li key={i.id} className="py-2 flex items-center gap-3">
                    <span className="w-8 h-8 rounded-full bg-emerald-100 text-emerald-700 flex items-center justify-center"><MdSavings /></span>
                    <span className="flex-1">{i.label}</span>
                    <span className="font-medium text-emerald-600">+{money(i.amount)}</span>
                    <button onClick={() => dispatch({ type: 'removeIncome', id: i.id })} className="text-slate-300 hover:text-rose-500" aria-label="Remove income"><MdDelete /></button>
                  </li>
                ))}
                {visibleExpenses.map((e) => {
                  const meta = CATEGORIES[e.category];
                  const Icon = meta.icon;
                  return (
                    <li key={e.id} className="py-2 flex items-center gap-3">
                      <span className="w-8 h-8 rounded-full flex items-center justify-center text-white" style={{ backgroundColor: meta.color }}><Icon /></span>
                      <span className="flex-1">{e.label}<span className="block text-xs text-slate-400">{meta.label} · {e.date}</span></span>
                      <span className="font-medium">-{money(e.amount)}</span>
                      <button onClick={() => dispatch({ type: 'removeExpense', id: e.id })} className="text-slate-300 hover:text-rose-500" aria-label="Remove expense"><MdDelete /></button>
                    </li>
                  );
                })}
              </ul>
            </div>

            <div className="bg-white rounded-2xl p-5 shadow-sm">
              <h2 className="font-semibold mb-3">Budget vs actual</h2>
              <div className="h-56">
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={byCategory}>
                    <XAxis dataKey="name" tick={{ fontSize: 11 }} />
                    <YAxis tick={{ fontSize: 11 }} />
                    <Tooltip formatter={(v) => money(v)} />
                    <Legend />
                    <Bar dataKey="limit" name="Budget" fill="#cbd5e1" radius={[4, 4, 0, 0]} />
                    <Bar dataKey="spent" name="Spent" fill="#10b981" radius={[4, 4, 0, 0]} />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            </div>
          </div>

          <div className="space-y-6">
            <div className="bg-white rounded-2xl p-5 shadow-sm">
              <h2 className="font-semibold mb-2">Spending breakdown</h2>
              <div className="h-52">
                <ResponsiveContainer width="100%" height="100%">
                  <PieChart>
                    <Pie data={pieData} dataKey="spent" nameKey="name" outerRadius={80} innerRadius={50}>
                      {pieData.map((c) => <Cell key={c.key} fill={c.color} />)}
                    </Pie>
                    <Tooltip formatter={(v) => money(v)} />
                  </PieChart>
                </ResponsiveContainer>
              </div>
              <ul className="space-y-2 text-sm">
                {byCategory.map((c) => (
                  <li key={c.key}>
                    <div className="flex justify-between"><span>{c.name}</span><span className={c.spent > c.limit ? 'text-rose-600 font-medium' : 'text-slate-500'}>{money(c.spent)} / {money(c.limit)}</span></div>
                    <div className="h-1.5 bg-slate-100 rounded-full mt-1"><div className="h-1.5 rounded-full" style={{ width: `${Math.min(100, (c.spent / c.limit) * 100)}%`, backgroundColor: c.spent > c.limit ? '#ef4444' : c.color }} /></div>
                  </li>
                ))}
              </ul>
            </div>

            <div className="bg-white rounded-2xl p-5 shadow-sm">
              <h2 className="font-semibold flex items-center gap-2"><MdSavings className="text-emerald-600" /> {state.goal.name}</h2>
              <p className="text-sm text-slate-500 mt-1">{money(state.goal.saved)} of {money(state.goal.target)}</p>
              <div className="h-3 bg-slate-100 rounded-full mt-3"><div className="h-3 bg-emerald-500 rounded-full transition-all" style={{ width: `${goalPct}%` }} /></div>
              <p className="text-xs text-slate-500 mt-1">{goalPct}% there</p>
              <div className="flex gap-2 mt-4">
                <input value={contribution} onChange={(e) => setContribution(e.target.value)} inputMode="decimal" className="flex-1 border border-slate-200 rounded-lg px-3 py-1.5 text-sm" />
                <button onClick={contribute} disabled={!(Number(contribution) > 0 && Number(contribution) <= remaining)} className="px-3 py-1.5 rounded-lg bg-emerald-600 text-white text-sm disabled:opacity-40">Contribute</button>
              </div>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

// Trip Expense Splitter: add friends and shared expenses, see who owes whom with a minimal set of settle-up payments
import { useState, useMemo } from 'react';

const START_PEOPLE = ['Ana', 'Ben', 'Chloe', 'Dev'];
const START_EXPENSES = [
  { id: 1, title: 'Cabin rental', amount: 640, paidBy: 'Ana', split: ['Ana', 'Ben', 'Chloe', 'Dev'] },
  { id: 2, title: 'Groceries', amount: 148.6, paidBy: 'Ben', split: ['Ana', 'Ben', 'Chloe', 'Dev'] },
  { id: 3, title: 'Kayak hire', amount: 90, paidBy: 'Chloe', split: ['Chloe', 'Dev', 'Ben'] },
  { id: 4, title: 'Fuel', amount: 72.4, paidBy: 'Dev', split: ['Ana', 'Dev'] },
];

function round2(n) {
  return Math.round(n * 100) / 100;
}

function computeBalances(people, expenses) {
  const balance = Object.fromEntries(people.map((p) => [p, 0]));
  expenses.forEach((e) => {
    const members = e.split.filter((p) => p in balance);
    if (!members.length || !(e.paidBy in balance)) return;
    const share = e.amount / members.length;
    balance[e.paidBy] += e.amount;
    members.forEach((m) => { balance[m] -= share; });
  });
  return Object.entries(balance).map(([name, value]) => ({ name, value: round2(value) }));
}

function settle(balances) {
  const creditors = balances.filter((b) => b.value > 0.009).map((b) => ({ ...b })).sort((a, b) => b.value - a.value);
  const debtors = balances.filter((b) => b.value < -0.009).map((b) => ({ ...b, value: -b.value })).sort((a, b) => b.value - a.value);
  const payments = [];
  let i = 0;
  let j = 0;
  while (i < debtors.length && j < creditors.length) {
    const amount = Math.min(debtors[i].value, creditors[j].value);
    payments.push({ from: debtors[i].name, to: creditors[j].name, amount: round2(amount) });
    debtors[i].value -= amount;
    creditors[j].value -= amount;
    if (debtors[i].value < 0.01) i += 1;
    if (creditors[j].value < 0.01) j += 1;
  }
  return payments;
}

const fmt = (n) => `$${n.toFixed(2)}`;

export default function App() {
  const [people, setPeople] = useState(START_PEOPLE);
  const [expenses, setExpenses] = useState(START_EXPENSES);
  const [newPerson, setNewPerson] = useState('');
  const [personError, setPersonError] = useState('');
  const [draft, setDraft] = useState({ title: '', amount: '', paidBy: START_PEOPLE[0], split: START_PEOPLE });
  const [draftError, setDraftError] = useState('');
  const [settled, setSettled] = useState([]);

  const balances = useMemo(() => computeBalances(people, expenses), [people, expenses]);
  const payments = useMemo(() => settle(balances), [balances]);
  const total = useMemo(() => expenses.reduce((s, e) => s + e.amount, 0), [expenses]);

  const addPerson = (e) => {
    e.preventDefault();
    const name = newPerson.trim();
    if (!name) return setPersonError('Enter a name');
    if (people.some((p) => p.toLowerCase() === name.toLowerCase())) return setPersonError('Already in the group');
    setPeople([...people, name]);
    setDraft((d) => ({ ...d, split: [...d.split, name] }));
    setNewPerson('');
    setPersonError('');
    return undefined;
  };

  const removePerson = (name) => {
    if (expenses.some((x) => x.paidBy === name)) {
      setPersonError(`${name} paid for something; remove those expenses first`);
      return;
    }
    setPeople(people.filter((p) => p !== name));
    setExpenses(expenses.map((x) => ({ ...x, split: x.split.filter((p) => p !== name) })));
    setDraft((d) => ({ ...d, paidBy: d.paidBy === name ? people.find((p) => p !== name) || '' : d.paidBy, split: d.split.filter((p) => p !== name) }));
  };

  const toggleSplit = (name) => setDraft((d) => ({ ...d, split: d.split.includes(name) ? d.split.filter((p) => p !== name) : [...d.split, name] }));

  const addExpense = (e) => {
    e.preventDefault();
    const amount = Number(draft.amount);
    if (!draft.title.trim()) return setDraftError('What was it for?');
    if (!(amount > 0)) return setDraftError('Amount must be positive');
    if (!draft.paidBy) return setDraftError('Who paid?');
    if (draft.split.length === 0) return setDraftError('Split between at least one person');
    setExpenses([...expenses, { id: Date.now(), title: draft.title.trim(), amount: round2(amount), paidBy: draft.paidBy, split: draft.split }]);
    setDraft({ ...draft, title: '', amount: '' });
    setDraftError('');
    setSettled([]);
    return undefined;
  };

  const paymentKey = (p) => `${p.from}->${p.to}`;

  return (
    <div className="min-h-screen bg-sky-50 p-8 text-slate-800">
      <div className="max-w-5xl mx-auto">
        <h1 className="text-3xl font-bold">Lake trip · shared costs</h1>
        <p className="text-slate-500 mb-8">Total spent {fmt(total)} across {expenses.length} expenses · {fmt(people.length ? total / people.length : 0)} per person on average</p>

        <div className="grid grid-cols-3 gap-6">
          <section className="bg-white rounded-2xl shadow-sm p-5">
            <h2 className="font-semibold mb-3">Group</h2>
            <ul className="space-y-2 mb-4">
              {balances.map((b) => (
                <li key={b.name} className="flex items-center justify-between">
                  <span className="flex items-center gap-2">
                    <span className="w-8 h-8 rounded-full bg-sky-100 text-sky-700 text-sm font-bold flex items-center justify-center">{b.name[0]}</span>
                    {b.name}
                  </span>
                  <span className="flex items-center gap-2">
                    <span className={`text-sm font-medium ${b.value > 0 ? 'text-emerald-600' : b.value < 0 ? 'text-rose-600' : 'text-slate-400'}`}>
                      {b.value > 0 ? '+' : ''}{fmt(b.value)}
                    </span>
                    <button onClick={() => removePerson(b.name)} className="text-slate-300 hover:text-rose-500 text-lg leading-none" aria-label={`Remove ${b.name}`}>×</button>
                  </span>
                </li>
              ))}
            </ul>
            <form onSubmit={addPerson} className="flex gap-2">
              <input value={newPerson} onChange={(e) => setNewPerson(e.target.value)} placeholder="Add a friend" className="flex-1 border border-slate-200 rounded-lg px-3 py-1.5 text-sm" />
              <button className="bg-sky-600 text-white text-sm px-3 rounded-lg">Add</button>
            </form>
            {personError && <p className="text-xs text-rose-600 mt-2">{personError}</p>}
          </section>

          <section className="col-span-2 bg-white rounded-2xl shadow-sm p-5">
            <h2 className="font-semibold mb-3">Expenses</h2>
            <table className="w-full text-sm mb-4">
              <thead className="text-left text-slate-500">
                <tr><th className="py-1 font-medium">Item</th><th className="font-medium">Paid by</th><th className="font-medium">Split</th><th className="font-medium text-right">Amount</th><th /></tr>
              </thead>
              <tbody>
                {expenses.map((x) => (
                  <tr key={x.id} className="border-t border-slate-100">
                    <td className="py-2">{x.title}</td>
                    <td>{x.paidBy}</td>
                    <td className="text-slate-500">{x.split.length === people.length ? 'Everyone' : x.split.join(', ')}</td>
                    <td className="text-right font-medium">{fmt(x.amount)}</td>
                    <td className="text-right"><button onClick={() => setExpenses(expenses.filter((y) => y.id !== x.id))} className="text-slate-300 hover:text-rose-500" aria-label="Delete expense">×</button></td>
                  </tr>
                ))}
              </tbody>
            </table>
            <form onSubmit={addExpense} className="bg-slate-50 rounded-xl p-4 space-y-3">
              <div className="flex gap-2">
                <input value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} placeholder="Description" className="flex-1 border border-slate-200 rounded-lg px-3 py-1.5 text-sm" />
                <input value={draft.amount} onChange={(e) => setDraft({ ...draft, amount: e.target.value })} placeholder="0.00" inputMode="decimal" className="w-28 border border-slate-200 rounded-lg px-3 py-1.5 text-sm" />
                <select value={draft.paidBy} onChange={(e) => setDraft({ ...draft, paidBy: e.target.value })} className="border border-slate-200 rounded-lg px-2 text-sm">
                  {people.map((p) => <option key={p}>{p}</option>)}
                </select>
              </div>
              <div className="flex items-center gap-2 flex-wrap text-sm">
                <span className="text-slate-500">Split with:</span>
                {people.map((p) => (
                  <button type="button" key={p} onClick={() => toggleSplit(p)} className={`px-3 py-1 rounded-full border ${draft.split.includes(p) ? 'bg-sky-600 border-sky-600 text-white' : 'border-slate-300 text-slate-500'}`}>{p}</button>
                ))}
                {draft.split.length > 0 && Number(draft.amount) > 0 && <span className="text-slate-400 ml-auto">{fmt(Number(draft.amount) / draft.split.length)} each</span>}
              </div>
              {draftError && <p className="text-xs text-rose-600">{draftError}</p>}
              <button className="bg-slate-900 text-white text-sm px-4 py-2 rounded-lg">Add expense</button>
            </form>
          </section>
        </div>

        <section className="bg-white rounded-2xl shadow-sm p-5 mt-6">
          <h2 className="font-semibold mb-3">Settle up ({payments.length} payment{payments.length === 1 ? '' : 's'})</h2>
          {payments.length === 0 ? (
            <p className="text-slate-400 text-sm">Everyone is square.</p>
          ) : (
            <ul className="grid grid-cols-3 gap-3">
              {payments.map((p) => {
                const done = settled.includes(paymentKey(p));
                return (
                  <li key={paymentKey(p)} className={`rounded-xl border p-3 flex items-center justify-between ${done ? 'bg-emerald-50 border-emerald-200' : 'border-slate-200'}`}>
                    <span className={done ? 'line-through text-slate-400' : ''}><strong>{p.from}</strong> pays <strong>{p.to}</strong> {fmt(p.amount)}</span>
                    <input type="checkbox" checked={done} onChange={() => setSettled((s) => (done ? s.filter((k) => k !== paymentKey(p)) : [...s, paymentKey(p)]))} aria-label="Mark as paid" />
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

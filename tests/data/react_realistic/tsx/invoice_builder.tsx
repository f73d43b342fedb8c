// Invoice Builder: editable invoice with client details, line items, tax and discount, currency selection, validation and a live print preview
import { useMemo, useReducer, useState } from 'react';
import type { ChangeEvent } from 'react';

type CurrencyCode = 'USD' | 'EUR' | 'GBP' | 'JPY';

interface LineItem {
  id: number;
  description: string;
  quantity: number;
  unitPrice: number;
}

interface Party {
  name: string;
  email: string;
  address: string;
}

interface InvoiceState {
  number: string;
  issueDate: string;
  dueDays: number;
  currency: CurrencyCode;
  from: Party;
  to: Party;
  items: LineItem[];
  taxRate: number;
  discount: number;
  notes: string;
}

type Action =
  | { type: 'field'; field: 'number' | 'issueDate' | 'notes'; value: string }
  | { type: 'number'; field: 'dueDays' | 'taxRate' | 'discount'; value: number }
  | { type: 'currency'; value: CurrencyCode }
  | { type: 'party'; side: 'from' | 'to'; field: keyof Party; value: string }
  | { type: 'addItem' }
  | { type: 'updateItem'; id: number; patch: Partial<Omit<LineItem, 'id'>> }
  | { type: 'removeItem'; id: number };

const INITIAL: InvoiceState = {
  number: 'INV-2024-0042',
  issueDate: '2024-06-03',
  dueDays: 30,
  currency: 'USD',
  from: { name: 'Brightline Studio', email: 'billing@brightline.studio', address: '14 Harbour Rd, Portland, OR' },
  to: { name: 'Acme Outdoor Co.', email: 'ap@acme-outdoor.com', address: '900 Summit Ave, Denver, CO' },
  items: [
    { id: 1, description: 'Brand strategy workshop', quantity: 1, unitPrice: 2400 },
    { id: 2, description: 'Logo and identity system', quantity: 1, unitPrice: 5200 },
    { id: 3, description: 'Website design (per page)', quantity: 6, unitPrice: 650 },
  ],
  taxRate: 8.25,
  discount: 5,
  notes: 'Thank you for your business. Payment by bank transfer within the due period.',
};

function reducer(state: InvoiceState, action: Action): InvoiceState {
  switch (action.type) {
    case 'field':
      return { ...state, [action.field]: action.value };
    case 'number':
      return { ...state, [action.field]: Number.isFinite(action.value) ? action.value : 0 };
    case 'currency':
      return { ...state, currency: action.value };
    case 'party':
      return { ...state, [action.side]: { ...state[action.side], [action.field]: action.value } };
    case 'addItem': {
      const id = Math.max(0, ...state.items.map((i) => i.id)) + 1;
      return { ...state, items: [...state.items, { id, description: '', quantity: 1, unitPrice: 0 }] };
    }
    case 'updateItem':
      return { ...state, items: state.items.map((i) => (i.id === action.id ? { ...i, ...action.patch } : i)) };
    case 'removeItem':
      return { ...state, items: state.items.filter((i) => i.id !== action.id) };
  }
}

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00`);
  if (Number.isNaN(d.getTime())) return '';
  d.setDate(d.getDate() + days);
  return d.toISOString().slice(0, 10);
}

function validate(s: InvoiceState): string[] {
  const issues: string[] = [];
  if (!/^[A-Z]{2,5}-\d{4}-\d{3,}$/.test(s.number)) issues.push('Invoice number should look like INV-2024-0001');
  if (!s.to.name.trim()) issues.push('Client name is required');
  if (!/^\S+@\S+\.\S+$/.test(s.to.email)) issues.push('Client email is invalid');
  if (s.items.length === 0) issues.push('Add at least one line item');
  s.items.forEach((item, i) => {
    if (!item.description.trim()) issues.push(`Line ${i + 1} needs a description`);
    if (item.quantity <= 0) issues.push(`Line ${i + 1} quantity must be positive`);
    if (item.unitPrice < 0) issues.push(`Line ${i + 1} price cannot be negative`);
  });
  if (s.taxRate < 0 || s.taxRate > 30) issues.push('Tax rate must be between 0 and 30%');
  if (s.discount < 0 || s.discount > 100) issues.push('Discount must be between 0 and 100%');
  return issues;
}

export default function App() {
  const [state, dispatch] = useReducer(reducer, INITIAL);
  const [showIssues, setShowIssues] = useState(false);
  const [sent, setSent] = useState(false);

  const fmt = useMemo(() => new Intl.NumberFormat('en-US', { style: 'currency', currency: state.currency }), [state.currency]);

  const totals = useMemo(() => {
    const subtotal = state.items.reduce((s, i) => s + i.quantity * i.unitPrice, 0);
    const discount = (subtotal * state.discount) / 100;
    const taxable = subtotal - discount;
    const tax = (taxable * state.taxRate) / 100;
    return { subtotal, discount, tax, total: taxable + tax };
  }, [state.items, state.discount, state.taxRate]);

  const issues = useMemo(() => validate(state), [state]);
  const dueDate = addDays(state.issueDate, state.dueDays);

  const party = (side: 'from' | 'to', field: keyof Party) => (e: ChangeEvent<HTMLInputElement>) => dispatch({ type: 'party', side, field, value: e.target.value });

  const send = () => {
    setShowIssues(true);
    if (issues.length === 0) setSent(true);
  };

  const inputCls = 'w-full rounded-md border border-gray-300 px-2 py-1.5 text-sm focus:border-teal-500 focus:outline-none';

  return (
    <div className="min-h-screen bg-gray-100 p-6">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-6">
        <section className="space-y-5 rounded-xl bg-white p-6 shadow">
          <div className="flex items-center justify-between">
            <h1 className="text-xl font-bold">Invoice editor</h1>
            <select value={state.currency} onChange={(e) => dispatch({ type: 'currency', value: e.target.value as CurrencyCode })} className="rounded-md border border-gray-300 px-2 py-1 text-sm">
              {(['USD', 'EUR', 'GBP', 'JPY'] as CurrencyCode[]).map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>

          <div className="grid grid-cols-3 gap-3 text-sm">
            <label>
              Number
              <input value={state.number} onChange={(e) => dispatch({ type: 'field', field: 'number', value: e.target.value })} className={inputCls} />
            </label>
            <label>
              Issue date
              <input type="date" value={state.issueDate} onChange={(e) => dispatch({ type: 'field', field: 'issueDate', value: e.target.value })} className={inputCls} />
            </label>
            <label>
              Payment terms
              <select value={state.dueDays} onChange={(e) => dispatch({ type: 'number', field: 'dueDays', value: Number(e.target.value) })} className={inputCls}>
                {[7, 14, 30, 45, 60].map((d) => (
                  <option key={d} value={d}>
                    Net {d}
                  </option>
                ))}
              </select>
            </label>
          </div>

          <div className="grid grid-cols-2 gap-4">
            {(['from', 'to'] as const).map((side) => (
              <fieldset key={side} className="space-y-2 rounded-lg border border-gray-200 p-3">
                <legend className="px-1 text-xs font-semibold uppercase text-gray-500">{side === 'from' ? 'From' : 'Bill to'}</legend>
                <input value={state[side].name} onChange={party(side, 'name')} placeholder="Name" className={inputCls} />
                <input value={state[side].email} onChange={party(side, 'email')} placeholder="Email" className={inputCls} />
                <input value={state[side].address} onChange={party(side, 'address')} placeholder="Address" className={inputCls} />
              </fieldset>
            ))}
          </div>

          <div>
            <div className="mb-2 grid grid-cols-12 gap-2 text-xs font-semibold uppercase text-gray-500">
              <span className="col-span-6">Description</span>
              <span className="col-span-2">Qty</span>
              <span className="col-span-3">Unit price</span>
            </div>
            <div className="space-y-2">
              {state.items.map((item) => (
                <div key={item.id} className="grid grid-cols-12 gap-2">
                  <input value={item.description} onChange={(e) => dispatch({ type: 'updateItem', id: item.id, patch: { description: e.target.value } })} className={`col-span-6 ${inputCls}`} />
                  <input
                    type="number"
                    min={0}
                    value={item.quantity}
                    onChange={(e) => dispatch({ type: 'updateItem', id: item.id, patch: { quantity: Number(e.target.value) } })}
                    className={`col-span-2 ${inputCls}`}
                  />
                  <input
                    type="number"
                    min={0}
                    step="0.01"
                    value={item.unitPrice}
                    onChange={(e) => dispatch({ type: 'updateItem', id: item.id, patch: { unitPrice: Number(e.target.value) } })}
                    className={`col-span-3 ${inputCls}`}
                  />
                  <button onClick={() => dispatch({ type: 'removeItem', id: item.id })} className="col-span-1 rounded-md text-gray-400 hover:bg-red-50 hover:text-red-600" aria-label="Remove line">
                    ✕
                  </button>
                </div>
              ))}
            </div>
            <button onClick={() => dispatch({ type: 'addItem' })} className="mt-2 text-sm font-medium text-teal-700 hover:underline">
              + Add line item
            </button>
          </div>

          <div className="grid grid-cols-2 gap-3 text-sm">
            <label>
              Tax rate (%)
              <input type="number" step="0.01" value={state.taxRate} onChange={(e) => dispatch({ type: 'number', field: 'taxRate', value: Number(e.target.value) })} className={inputCls} />
            </label>
            <label>
              Discount (%)
              <input type="number" value={state.discount} onChange={(e) => dispatch({ type: 'number', field: 'discount', value: Number(e.target.value) })} className={inputCls} />
            </label>
          </div>
          <label className="block text-sm">
            Notes
            <textarea rows={2} value={state.notes} onChange={(e) => dispatch({ type: 'field', field: 'notes', value: e.target.value })} className={inputCls} />
          </label>

          {showIssues && issues.length > 0 && (
            <ul className="rounded-lg bg-red-50 p-3 text-xs text-red-700">
              {issues.map((i) => (
                <li key={i}>• {i}</li>
              ))}
            </ul>
          )}
          <div className="flex gap-2">
            <button onClick={send} className="rounded-lg bg-teal-600 px-4 py-2 text-sm font-semibold text-white hover:bg-teal-700">
              Send invoice
            </button>
            <button onClick={() => window.print()} className="rounded-lg border border-gray-300 px-4 py-2 text-sm hover:bg-gray-50">
              Print
            </button>
            {sent && <span className="self-center text-sm text-teal-700">Sent to {state.to.email}</span>}
          </div>
        </section>

        <section className="rounded-xl bg-white p-10 shadow">
          <div className="flex items-start justify-between">
            <div>
              <div className="text-2xl font-black tracking-tight text-teal-700">{state.from.name || 'Your company'}</div>
              <div className="text-xs text-gray-500">{state.from.address}</div>
              <div className="text-xs text-gray-500">{state.from.email}</div>
            </div>
            <div className="text-right">
              <div className="text-3xl font-light uppercase tracking-widest text-gray-400">Invoice</div>
              <div className="font-mono text-sm">{state.number}</div>
            </div>
          </div>
          <div className="mt-8 grid grid-cols-3 gap-4 text-sm">
            <div>
              <div className="text-xs uppercase text-gray-400">Billed to</div>
              <div className="font-semibold">{state.to.name || '—'}</div>
              <div className="text-gray-500">{state.to.address}</div>
            </div>
            <div>
              <div className="text-xs uppercase text-gray-400">Issued</div>
              <div>{state.issueDate}</div>
            </div>
            <div>
              <div className="text-xs uppercase text-gray-400">Due</div>
              <div>{dueDate || '—'}</div>
            </div>
          </div>
          <table className="mt-8 w-full text-sm">
            <thead className="border-b-2 border-gray-800 text-left text-xs uppercase">
              <tr>
                <th className="py-2">Item</th>
                <th className="py-2 text-right">Qty</th>
                <th className="py-2 text-right">Price</th>
                <th className="py-2 text-right">Amount</th>
              </tr>
            </thead>
            <tbody>
              {state.items.map((i) => (
                <tr key={i.id} className="border-b border-gray-100">
                  <td className="py-2">{i.description || <span className="text-gray-300">Untitled item</span>}</td>
                  <td className="py-2 text-right">{i.quantity}</td>
                  <td className="py-2 text-right">{fmt.format(i.unitPrice)}</td>
                  <td className="py-2 text-right">{fmt.format(i.quantity * i.unitPrice)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="ml-auto mt-6 w-64 space-y-1 text-sm">
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd>{fmt.format(totals.subtotal)}</dd>
            </div>
            {state.discount > 0 && (
              <div className="flex justify-between text-gray-500">
                <dt>Discount ({state.discount}%)</dt>
                <dd>−{fmt.format(totals.discount)}</dd>
              </div>
            )}
            <div className="flex justify-between text-gray-500">
              <dt>Tax ({state.taxRate}%)</dt>
              <dd>{fmt.format(totals.tax)}</dd>
            </div>
            <div className="flex justify-between border-t-2 border-gray-800 pt-2 text-lg font-bold">
              <dt>Total due</dt>
              <dd>{fmt.format(totals.total)}</dd>
            </div>
          </dl>
          {state.notes && <p className="mt-10 border-t border-gray-100 pt-4 text-xs text-gray-500">{state.notes}</p>}
        </section>
      </div>
    </div>
  );
}

// Stockroom Inventory: sortable, paginated product table with search, category filters, low-stock alerts, bulk actions and an add/edit modal
import { useState, useMemo, useReducer, useEffect, useRef } from 'react';
import {
  Search, Plus, Pencil, Trash2, ArrowUpDown, ChevronLeft, ChevronRight, Package, AlertTriangle, X, Download, Filter,
} from 'lucide-react';

const CATEGORIES = ['Electronics', 'Furniture', 'Office', 'Kitchen', 'Outdoor'];
const SUPPLIERS = ['Nordic Supply', 'Apex Wholesale', 'BlueLine', 'Kato Trading'];

const ADJECTIVES = ['Compact', 'Ergonomic', 'Wireless', 'Premium', 'Classic', 'Smart', 'Foldable', 'Heavy-duty'];
const NOUNS = {
  Electronics: ['Keyboard', 'Monitor', 'Headset', 'Webcam', 'Charger'],
  Furniture: ['Desk', 'Chair', 'Shelf', 'Cabinet', 'Stool'],
  Office: ['Stapler', 'Notebook', 'Whiteboard', 'Lamp', 'Organizer'],
  Kitchen: ['Kettle', 'Blender', 'Mug set', 'Toaster', 'Scale'],
  Outdoor: ['Lantern', 'Cooler', 'Hammock', 'Tent', 'Grill'],
};

function generateProducts() {
  const items = [];
  let n = 1;
  CATEGORIES.forEach((cat, ci) => {
    NOUNS[cat].forEach((noun, ni) => {
      for (let k = 0; k < 2; k += 1) {
        const seed = ci * 31 + ni * 7 + k * 13;
        items.push({
          id: n,
          sku: `${cat.slice(0, 3).toUpperCase()}-${String(1000 + n * 17).slice(-4)}`,
          name: `${ADJECTIVES[seed % ADJECTIVES.length]} ${noun}`,
          category: cat,
          supplier: SUPPLIERS[seed % SUPPLIERS.length],
          price: Math.round((12 + (seed * 37) % 480) * 100) / 100,
          stock: (seed * 11) % 140,
          reorderAt: 10 + (seed % 4) * 5,
        });
        n += 1;
      }
    });
  });
  return items;
}

function inventoryReducer(state, action) {
  switch (action.type) {
    case 'add':
      return [...state, { ...action.item, id: Math.max(0, ...state.map((p) => p.id)) + 1 }];
    case 'update':
      return state.map((p) => (p.id === action.item.id ? action.item : p));
    case 'remove':
      return state.filter((p) => !action.ids.includes(p.id));
    case 'restock':
      return state.map((p) => (action.ids.includes(p.id) ? { ...p, stock: p.stock + action.amount } : p));
    default:
      return state;
  }
}

const EMPTY_FORM = { sku: '', name: '', category: CATEGORIES[0], supplier: SUPPLIERS[0], price: '', stock: '', reorderAt: '10' };

function validateProduct(form, products, editingId) {
  const errors = {};
  if (!/^[A-Z]{3}-\d{4}$/.test(form.sku)) errors.sku = 'Format: ABC-1234';
  else if (products.some((p) => p.sku === form.sku && p.id !== editingId)) errors.sku = 'SKU already exists';
  if (form.name.trim().length < 3) errors.name = 'Name is too short';
  const price = Number(form.price);
  if (!form.price || Number.isNaN(price) || price <= 0) errors.price = 'Enter a positive price';
  const stock = Number(form.stock);
  if (form.stock === '' || !Number.isInteger(stock) || stock < 0) errors.stock = 'Whole number, 0 or more';
  const reorder = Number(form.reorderAt);
  if (!Number.isInteger(reorder) || reorder < 0) errors.reorderAt = 'Whole number';
  return errors;
}

function ProductModal({ initial, products, onSave, onClose }) {
  const [form, setForm] = useState(initial ? { ...initial, price: String(initial.price), stock: String(initial.stock), reorderAt: String(initial.reorderAt) } : EMPTY_FORM);
  const [errors, setErrors] = useState({});
  const firstInput = useRef(null);

  useEffect(() => {
    if (firstInput.current) firstInput.current.focus();
    const onKey = (e) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const update = (key) => (e) => setForm((f) => ({ ...f, [key]: key === 'sku' ? e.target.value.toUpperCase() : e.target.value }));

  const submit = (e) => {
    e.preventDefault();
    const found = validateProduct(form, products, initial ? initial.id : null);
    setErrors(found);
    if (Object.keys(found).length) return;
    onSave({ ...form, id: initial ? initial.id : undefined, name: form.name.trim(), price: Number(form.price), stock: Number(form.stock), reorderAt: Number(form.reorderAt) });
  };

  const input = (key, label, props = {}) => (
    <label className="block text-sm">
      <span className="text-gray-600">{label}</span>
      <input {...props} value={form[key]} onChange={update(key)} className={`mt-1 w-full border rounded-md px-3 py-2 ${errors[key] ? 'border-red-400' : 'border-gray-300'}`} />
      {errors[key] && <span className="text-xs text-red-600">{errors[key]}</span>}
    </label>
  );

  return (
    <div className="fixed inset-0 bg-black/40 z-20 flex items-center justify-center">
      <form onSubmit={submit} className="bg-white rounded-xl shadow-xl w-[520px] p-6" noValidate>
        <div className="flex items-center justify-between mb-4">
          <h2 className="text-lg font-semibold">{initial ? 'Edit product' : 'New product'}</h2>
          <button type="button" onClick={onClose} aria-label="Close"><X className="w-5 h-5 text-gray-500" /></button>
        </div>
        <div className="grid grid-cols-2 gap-4">
          <label className="block text-sm">
            <span className="text-gray-600">SKU</span>
            <input ref={firstInput} value={form.sku} onChange={update('sku')} placeholder="ELE-1234" className={`mt-1 w-full border rounded-md px-3 py-2 font-mono ${errors.sku ? 'border-red-400' : 'border-gray-300'}`} />
            {errors.sku && <span className="text-xs text-red-600">{errors.sku}</span>}
          </label>
          {input('name', 'Product name')}
          <label className="block text-sm">
            <span className="text-gray-600">Category</span>
            <select value={form.category} onChange={update('category')} className="mt-1 w-full border border-gray-300 rounded-md px-3 py-2">
              {CATEGORIES.map((c) => <option key={c}>{c}</option>)}
            </select>
          </label>
          <label className="block text-sm">
            <span className="text-gray-600">Supplier</span>
            <select value={form.supplier} onChange={update('supplier')} className="mt-1 w-full border border-gray-300 rounded-md px-3 py-2">
              {SUPPLIERS.map((s) => <option key={s}>{s}</option>)}
            </select>
          </label>
          {input('price', 'Unit price ($)', { inputMode: 'decimal' })}
          {input('stock', 'In stock', { inputMode: 'numeric' })}
          {input('reorderAt', 'Reorder threshold', { inputMode: 'numeric' })}
        </div>
        <div className="flex justify-end gap-2 mt-6">
          <button type="button" onClick={onClose} className="px-4 py-2 rounded-md border border-gray-300 text-sm">Cancel</button>
          <button className="px-4 py-2 rounded-md bg-blue-600 text-white text-sm font-medium hover:bg-blue-700">{initial ? 'Save changes' : 'Add product'}</button>
        </div>
      </form>
    </div>
  );
}

const PAGE_SIZE = 10;

export default function App() {
  const [products, dispatch] = useReducer(inventoryReducer, undefined, generateProducts);
  const [search, setSearch] = useState('');
  const [categories, setCategories] = useState([]);
  const [lowOnly, setLowOnly] = useState(false);
  const [sort, setSort] = useState({ key: 'name', dir: 'asc' });
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState([]);
  const [modal, setModal] = useState(null); // null | { mode: 'add' } | { mode: 'edit', product }
  const [toast, setToast] = useState('');

  useEffect(() => {
    if (!toast) return undefined;
    const id = setTimeout(() => setToast(''), 2500);
    return () => clearTimeout(id);
  }, [toast]);

  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = products.filter((p) =>
      (categories.length === 0 || categories.includes(p.category)) &&
      (!lowOnly || p.stock <= p.reorderAt) &&
      (!q || p.name.toLowerCase().includes(q) || p.sku.toLowerCase().includes(q) || p.supplier.toLowerCase().includes(q))
    );
    const dir = sort.dir === 'asc' ? 1 : -1;
    return list.sort((a, b) => {
      const av = a[sort.key];
      const bv = b[sort.key];
      return (typeof av === 'number' ? av - bv : String(av).localeCompare(String(bv))) * dir;
    });
  }, [products, search, categories, lowOnly, sort]);

  const pageCount = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  const currentPage = Math.min(page, pageCount);
  const pageItems = filtered.slice((currentPage - 1) * PAGE_SIZE, currentPage * PAGE_SIZE);

  const totals = useMemo(() => ({
    skus: products.length,
    units: products.reduce((s, p) => s + p.stock, 0),
    value: products.reduce((s, p) => s + p.stock * p.price, 0),
    low: products.filter((p) => p.stock <= p.reorderAt).length,
  }), [products]);

  const toggleSort = (key) => setSort((s) => ({ key, dir: s.key === key && s.dir === 'asc' ? 'desc' : 'asc' }));
  const toggleCategory = (c) => { setPage(1); setCategories((prev) => (prev.includes(c) ? prev.filter((x) => x !== c) : [...prev, c])); };
  const allOnPageSelected = pageItems.length > 0 && pageItems.every((p) => selected.includes(p.id));
  const toggleAll = () => setSelected((prev) => (allOnPageSelected ? prev.filter((id) => !pageItems.some((p) => p.id === id)) : [...new Set([...prev, ...pageItems.map((p) => p.id)])]));
  const toggleOne = (id) => setSelected((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id]));

  const saveProduct = (item) => {
    if (item.id) { dispatch({ type: 'update', item }); setToast(`Updated ${item.name}`); }
    else { dispatch({ type: 'add', item }); setToast(`Added ${item.name}`); }
    setModal(null);
  };

  const bulkDelete = () => {
    if (!window.confirm(`Delete ${selected.length} product(s)?`)) return;
    dispatch({ type: 'remove', ids: selected });
    setToast(`Deleted ${selected.length} product(s)`);
    setSelected([]);
  };

  const bulkRestock = () => {
    dispatch({ type: 'restock', ids: selected, amount: 25 });
    setToast(`Restocked ${selected.length} product(s) by 25 units`);
    setSelected([]);
  };

  const exportCsv = () => {
    const header = 'sku,name,category,supplier,price,stock';
    const body = filtered.map((p) => [p.sku, `"${p.name}"`, p.category, p.supplier, p.price, p.stock].join(',')).join('\n');
    const url = URL.createObjectURL(new Blob([`${header}\n${body}`], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'inventory.csv';
    a.click();
    URL.revokeObjectURL(url);
  };

  const SortHeader = ({ k, children, className = '' }) => (
    <th className={`px-3 py-2 font-medium ${className}`}>
      <button onClick={() => toggleSort(k)} className="flex items-center gap-1 hover:text-gray-900">
        {children}
        <ArrowUpDown className={`w-3 h-3 ${sort.key === k ? 'text-blue-600' : 'text-gray-300'}`} />
      </button>
    </th>
  );

  return (
    <div className="min-h-screen bg-gray-100 p-8">
      <div className="max-w-6xl mx-auto">
        <div className="flex items-center justify-between mb-6">
          <h1 className="text-2xl font-bold flex items-center gap-2"><Package className="w-6 h-6 text-blue-600" /> Stockroom</h1>
          <div className="flex gap-2">
            <button onClick={exportCsv} className="flex items-center gap-1 px-3 py-2 bg-white border border-gray-300 rounded-md text-sm"><Download className="w-4 h-4" /> Export</button>
            <button onClick={() => setModal({ mode: 'add' })} className="flex items-center gap-1 px-3 py-2 bg-blue-600 text-white rounded-md text-sm font-medium"><Plus className="w-4 h-4" /> Add product</button>
          </div>
        </div>

        <div className="grid grid-cols-4 gap-4 mb-6">
          {[
            ['Products', totals.skus.toLocaleString()],
            ['Units on hand', totals.units.toLocaleString()],
            ['Inventory value', totals.value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })],
            ['Low stock', totals.low],
          ].map(([label, value]) => (
            <div key={label} className="bg-white rounded-lg p-4 shadow-sm">
              <p className="text-xs text-gray-500 uppercase tracking-wide">{label}</p>
              <p className={`text-2xl font-semibold mt-1 ${label === 'Low stock' && totals.low > 0 ? 'text-amber-600' : ''}`}>{value}</p>
            </div>
          ))}
        </div>

        <div className="bg-white rounded-lg shadow-sm">
          <div className="p-4 flex flex-wrap items-center gap-3 border-b border-gray-200">
            <div className="relative w-72">
              <Search className="w-4 h-4 absolute left-3 top-2.5 text-gray-400" />
              <input value={search} onChange={(e) => { setSearch(e.target.value); setPage(1); }} placeholder="Search name, SKU, supplier" className="w-full pl-9 pr-3 py-2 border border-gray-300 rounded-md text-sm" />
            </div>
            <Filter className="w-4 h-4 text-gray-400" />
            {CATEGORIES.map((c) => (
              <button key={c} onClick={() => toggleCategory(c)} className={`px-3 py-1 rounded-full text-xs font-medium border ${categories.includes(c) ? 'bg-blue-50 border-blue-300 text-blue-700' : 'border-gray-300 text-gray-600'}`}>{c}</button>
            ))}
            <label className="flex items-center gap-2 text-sm ml-auto">
              <input type="checkbox" checked={lowOnly} onChange={(e) => { setLowOnly(e.target.checked); setPage(1); }} /> Low stock only
            </label>
          </div>

          {selected.length > 0 && (
            <div className="px-4 py-2 bg-blue-50 text-sm flex items-center gap-3">
              <span className="font-medium text-blue-800">{selected.length} selected</span>
              <button onClick={bulkRestock} className="text-blue-700 hover:underline">Restock +25</button>
              <button onClick={bulkDelete} className="text-red-600 hover:underline">Delete</button>
              <button onClick={() => setSelected([])} className="text-gray-500 hover:underline ml-auto">Clear selection</button>
            </div>
          )}

          <table className="w-full text-sm">
            <thead className="text-left text-gray-500 bg-gray-50">
              <tr>
                <th className="px-3 py-2 w-8"><input type="checkbox" checked={allOnPageSelected} onChange={toggleAll} aria-label="Select page" /></th>
                <SortHeader k="sku">SKU</SortHeader>
                <SortHeader k="name">Name</SortHeader>
                <SortHeader k="category">Category</SortHeader>
                <SortHeader k="supplier">Supplier</SortHeader>
                <SortHeader k="price" className="text-right">Price</SortHeader>
                <SortHeader k="stock">Stock</SortHeader>
                <th className="px-3 py-2" />
              </tr>
            </thead>
            <tbody>
              {pageItems.map((p) => {
                const low = p.stock <= p.reorderAt;
                return (
                  <tr key={p.id} className={`border-t border-gray-100 ${selected.includes(p.id) ? 'bg-blue-50/50' : 'hover:bg-gray-50'}`}>
                    <td className="px-3 py-2"><input type="checkbox" checked={selected.includes(p.id)} onChange={() => toggleOne(p.id)} aria-label={`Select ${p.name}`} /></td>
                    <td className="px-3 py-2 font-mono text-xs text-gray-500">{p.sku}</td>
                    <td className="px-3 py-2 font-medium">{p.name}</td>
                    <td className="px-3 py-2">{p.category}</td>
                    <td className="px-3 py-2 text-gray-500">{p.supplier}</td>
                    <td className="px-3 py-2 text-right">${p.price.toFixed(2)}</td>
                    <td className="px-3 py-2">
                      <span className={`inline-flex items-center gap-1 ${low ? 'text-amber-600 font-semibold' : ''}`}>
                        {low && <AlertTriangle className="w-3.5 h-3.5" />}{p.stock}
                      </span>
                    </td>
                    <td className="px-3 py-2 text-right whitespace-nowrap">
                      <button onClick={() => setModal({ mode: 'edit', product: p })} className="p-1 text-gray-400 hover:text-blue-600" aria-label="Edit"><Pencil className="w-4 h-4" /></button>
                      <button onClick={() => { dispatch({ type: 'remove', ids: [p.id] }); setToast(`Deleted ${p.name}`); }} className="p-1 text-gray-400 hover:text-red-600" aria-label="Delete"><Trash2 className="w-4 h-4" /></button>
                    </td>
                  </tr>
                );
              })}
              {pageItems.length === 0 && (
                <tr><td colSpan={8} className="text-center py-12 text-gray-400">No products match these filters.</td></tr>
              )}
            </tbody>
          </table>

          <div className="flex items-center justify-between px-4 py-3 border-t border-gray-200 text-sm text-gray-600">
            <span>Showing {filtered.length ? (currentPage - 1) * PAGE_SIZE + 1 : 0}–{Math.min(currentPage * PAGE_SIZE, filtered.length)} of {filtered.length}</span>
            <div className="flex items-center gap-1">
              <button onClick={() => setPage(currentPage - 1)} disabled={currentPage === 1} className="p-1.5 rounded border border-gray-300 disabled:opacity-40" aria-label="Previous page"><ChevronLeft className="w-4 h-4" /></button>
              {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
                <button key={n} onClick={() => setPage(n)} className={`w-8 h-8 rounded ${n === currentPage ? 'bg-blue-600 text-white' : 'hover:bg-gray-100'}`}>{n}</button>
              ))}
              <button onClick={() => setPage(currentPage + 1)} disabled={currentPage === pageCount} className="p-1.5 rounded border border-gray-300 disabled:opacity-40" aria-label="Next page"><ChevronRight className="w-4 h-4" /></button>
            </div>
          </div>
        </div>
      </div>

      {modal && (
        <ProductModal
          initial={modal.mode === 'edit' ? modal.product : null}
          products={products}
          onSave={saveProduct}
          onClose={() => setModal(null)}
        />
      )}

      {toast && <div className="fixed bottom-6 right-6 bg-gray-900 text-white text-sm px-4 py-2 rounded-lg shadow-lg">{toast}</div>}
    </div>
  );
}

// Threadline Shop: product catalogue with filters and sorting, quick-view modal, animated cart drawer, promo codes and a validated checkout form
import { useState, useMemo, useReducer, useEffect } from 'react';
import { motion, AnimatePresence } from 'framer-motion';
import { ShoppingBag, Search, X, Plus, Minus, Star, Heart, Truck, CreditCard, CheckCircle2, SlidersHorizontal } from 'lucide-react';

const PRODUCTS = [
  { id: 'p1', name: 'Everyday Linen Shirt', category: 'Tops', price: 68, rating: 4.6, reviews: 214, colors: ['#e7e5e4', '#1e3a8a', '#166534'], sizes: ['S', 'M', 'L', 'XL'], badge: 'Bestseller' },
  { id: 'p2', name: 'Relaxed Chino', category: 'Bottoms', price: 84, rating: 4.4, reviews: 132, colors: ['#d6c6a5', '#374151'], sizes: ['28', '30', '32', '34', '36'] },
  { id: 'p3', name: 'Merino Crew Sweater', category: 'Knitwear', price: 120, rating: 4.8, reviews: 301, colors: ['#7f1d1d', '#1f2937', '#a3a3a3'], sizes: ['S', 'M', 'L'], badge: 'New' },
  { id: 'p4', name: 'Organic Cotton Tee', category: 'Tops', price: 32, rating: 4.3, reviews: 540, colors: ['#ffffff', '#000000', '#fbbf24'], sizes: ['XS', 'S', 'M', 'L', 'XL'] },
  { id: 'p5', name: 'Waxed Field Jacket', category: 'Outerwear', price: 245, rating: 4.7, reviews: 88, colors: ['#3f6212', '#78350f'], sizes: ['M', 'L', 'XL'] },
  { id: 'p6', name: 'Wide-Leg Trouser', category: 'Bottoms', price: 96, rating: 4.2, reviews: 64, colors: ['#171717', '#e5e5e5'], sizes: ['26', '28', '30', '32'], badge: 'Low stock' },
  { id: 'p7', name: 'Cable Knit Cardigan', category: 'Knitwear', price: 138, rating: 4.5, reviews: 120, colors: ['#f5f5f4', '#57534e'], sizes: ['S', 'M', 'L'] },
  { id: 'p8', name: 'Packable Rain Shell', category: 'Outerwear', price: 159, rating: 4.1, reviews: 47, colors: ['#0ea5e9', '#f97316', '#111827'], sizes: ['S', 'M', 'L', 'XL'] },
];

const PROMOS = { WELCOME10: { type: 'percent', value: 10 }, FREESHIP: { type: 'shipping', value: 0 }, SAVE25: { type: 'flat', value: 25, min: 150 } };
const FREE_SHIPPING_AT = 150;

function cartReducer(state, action) {
  switch (action.type) {
    case 'add': {
      const key = `${action.product.id}-${action.size}-${action.color}`;
      const existing = state.find((l) => l.key === key);
      if (existing) return state.map((l) => (l.key === key ? { ...l, qty: Math.min(10, l.qty + 1) } : l));
      return [...state, { key, productId: action.product.id, size: action.size, color: action.color, qty: 1 }];
    }
    case 'qty':
      return state.map((l) => (l.key === action.key ? { ...l, qty: Math.max(1, Math.min(10, l.qty + action.delta)) } : l));
    case 'remove':
      return state.filter((l) => l.key !== action.key);
    case 'clear':
      return [];
    default:
      return state;
  }
}

function ProductArt({ product, color, className }) {
  return (
    <div className={`relative flex items-center justify-center ${className}`} style={{ background: `linear-gradient(160deg, ${color}33, ${color}99)` }}>
      <span className="text-5xl font-black tracking-tighter text-white/80 mix-blend-overlay">{product.name.split(' ').map((w) => w[0]).join('')}</span>
    </div>
  );
}

function Rating({ value, count }) {
  return (
    <span className="flex items-center gap-1 text-xs text-stone-500">
      <Star className="w-3 h-3 fill-amber-400 text-amber-400" /> {value.toFixed(1)} <span>({count})</span>
    </span>
  );
}

const EMPTY_CHECKOUT = { name: '', email: '', address: '', city: '', zip: '', card: '', expiry: '', cvc: '' };

function validateCheckout(f) {
  const e = {};
  if (f.name.trim().length < 2) e.name = 'Full name required';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(f.email)) e.email = 'Valid email required';
  if (f.address.trim().length < 5) e.address = 'Street address required';
  if (!f.city.trim()) e.city = 'City required';
  if (!/^\d{5}(-\d{4})?$/.test(f.zip)) e.zip = '5-digit ZIP';
  if (!/^\d{16}$/.test(f.card.replace(/\s/g, ''))) e.card = '16-digit card number';
  const m = /^(\d{2})\/(\d{2})$/.exec(f.expiry);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) e.expiry = 'MM/YY';
  if (!/^\d{3,4}$/.test(f.cvc)) e.cvc = '3–4 digits';
  return e;
}

export default function App() {
  const [cart, dispatch] = useReducer(cartReducer, []);
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState('All');
  const [sort, setSort] = useState('featured');
  const [maxPrice, setMaxPrice] = useState(250);
  const [wishlist, setWishlist] = useState([]);
  const [quickView, setQuickView] = useState(null);
  const [selection, setSelection] = useState({ size: '', color: '' });
  const [cartOpen, setCartOpen] = useState(false);
  const [promoInput, setPromoInput] = useState('');
  const [promo, setPromo] = useState(null);
  const [promoError, setPromoError] = useState('');
  const [checkout, setCheckout] = useState(false);
  const [form, setForm] = useState(EMPTY_CHECKOUT);
  const [errors, setErrors] = useState({});
  const [orderId, setOrderId] = useState(null);

  useEffect(() => {
    const onKey = (e) => {
      if (e.key !== 'Escape') return;
      setQuickView(null);
      setCartOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const categories = useMemo(() => ['All', ...new Set(PRODUCTS.map((p) => p.category))], []);
  const products = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = PRODUCTS.filter((p) => (category === 'All' || p.category === category) && p.price <= maxPrice && (!q || p.name.toLowerCase().includes(q)));
    if (sort === 'price-asc') return [...list].sort((a, b) => a.price - b.price);
    if (sort === 'price-desc') return [...list].sort((a, b) => b.price - a.price);
    if (sort === 'rating') return [...list].sort((a, b) => b.rating - a.rating);
    return list;
  }, [query, category, sort, maxPrice]);

  const lines = cart.map((l) => ({ ...l, product: PRODUCTS.find((p) => p.id === l.productId) })).filter((l) => l.product);
  const itemCount = lines.reduce((s, l) => s + l.qty, 0);
  const subtotal = lines.reduce((s, l) => s + l.qty * l.product.price, 0);
  const discount = !promo ? 0 : promo.type === 'percent' ? subtotal * (promo.value / 100) : promo.type === 'flat' && subtotal >= (promo.min || 0) ? promo.value : 0;
  const shipping = subtotal === 0 || subtotal >= FREE_SHIPPING_AT || (promo && promo.type === 'shipping') ? 0 : 9.95;
  const total = Math.max(0, subtotal - discount + shipping);

  const openQuickView = (p) => {
    setQuickView(p);
    setSelection({ size: '', color: p.colors[0] });
  };

  const addToCart = () => {
    if (!quickView || !selection.size) return;
    dispatch({ type: 'add', product: quickView, size: selection.size, color: selection.color });
    setQuickView(null);
    setCartOpen(true);
  };

  const applyPromo = (e) => {
    e.preventDefault();
    const code = promoInput.trim().toUpperCase();
    const found = PROMOS[code];
    if (!found) { setPromoError('That code is not valid'); return; }
    if (found.min && subtotal < found.min) { setPromoError(`Spend $${found.min} to use ${code}`); return; }
    setPromo({ ...found, code });
    setPromoError('');
    setPromoInput('');
  };

  const placeOrder = (e) => {
    e.preventDefault();
    const found = validateCheckout(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    setOrderId(`TL-${Math.floor(100000 + Math.random() * 900000)}`);
    dispatch({ type: 'clear' });
    setPromo(null);
  };

  const field = (key, label, props = {}) => (
    <label className={`block text-sm ${props.wide ? 'col-span-2' : ''}`}>
      <span className="text-stone-600">{label}</span>
      <input value={form[key]} onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} placeholder={props.placeholder} className={`mt-1 w-full border rounded-lg px-3 py-2 ${errors[key] ? 'border-rose-400' : 'border-stone-300'}`} />
      {errors[key] && <span className="text-xs text-rose-600">{errors[key]}</span>}
    </label>
  );

  if (checkout) {
    return (
      <div className="min-h-screen bg-stone-100 py-10">
        <div className="max-w-4xl mx-auto px-6">
          <button onClick={() => { setCheckout(false); setOrderId(null); }} className="text-sm text-stone-500 hover:text-stone-800">← Back to shop</button>
          {orderId ? (
            <div className="bg-white rounded-2xl p-10 mt-6 text-center">
              <CheckCircle2 className="w-14 h-14 text-emerald-500 mx-auto" />
              <h1 className="text-2xl font-bold mt-4">Thank you for your order!</h1>
              <p className="text-stone-500 mt-2">Order {orderId} is confirmed. A receipt is on its way to {form.email}.</p>
            </div>
          ) : (
            <div className="grid grid-cols-5 gap-6 mt-6">
              <form onSubmit={placeOrder} noValidate className="col-span-3 bg-white rounded-2xl p-6 space-y-6">
                <section>
                  <h2 className="font-semibold flex items-center gap-2 mb-3"><Truck className="w-4 h-4" /> Shipping</h2>
                  <div className="grid grid-cols-2 gap-3">
                    {field('name', 'Full name', { wide: true })}
                    {field('email', 'Email', { wide: true })}
                    {field('address', 'Street address', { wide: true })}
                    {field('city', 'City')}
                    {field('zip', 'ZIP code')}
                  </div>
                </section>
                <section>
                  <h2 className="font-semibold flex items-center gap-2 mb-3"><CreditCard className="w-4 h-4" /> Payment</h2>
                  <div className="grid grid-cols-2 gap-3">
                    {field('card', 'Card number', { wide: true, placeholder: '4242 4242 4242 4242' })}
                    {field('expiry', 'Expiry', { placeholder: 'MM/YY' })}
                    {field('cvc', 'CVC')}
                  </div>
                </section>
                <button disabled={!lines.length} className="w-full py-3 rounded-xl bg-stone-900 text-white font-semibold disabled:opacity-40">Pay ${total.toFixed(2)}</button>
              </form>
              <aside className="col-span-2 bg-white rounded-2xl p-6 h-fit">
                <h2 className="font-semibold mb-3">Order summary</h2>
                <ul className="space-y-2 text-sm">
                  {lines.map((l) => <li key={l.key} className="flex justify-between"><span>{l.qty} × {l.product.name} ({l.size})</span><span>${(l.qty * l.product.price).toFixed(2)}</span></li>)}
                </ul>
                <dl className="border-t border-stone-200 mt-4 pt-4 text-sm space-y-1">
                  <div className="flex justify-between"><dt>Subtotal</dt><dd>${subtotal.toFixed(2)}</dd></div>
                  {discount > 0 && <div className="flex justify-between text-emerald-700"><dt>Discount ({promo.code})</dt><dd>−${discount.toFixed(2)}</dd></div>}
                  <div className="flex justify-between"><dt>Shipping</dt><dd>{shipping ? `$${shipping.toFixed(2)}` : 'Free'}</dd></div>
                  <div className="flex justify-between font-bold text-base pt-2"><dt>Total</dt><dd>${total.toFixed(2)}</dd></div>
                </dl>
              </aside>
            </div>
          )}
        </div>
      </div>
    );
  }

  return (
    <div className="min-h-screen bg-stone-50 text-stone-900">
      <header className="sticky top-0 z-10 bg-white/90 backdrop-blur border-b border-stone-200">
        <div className="max-w-6xl mx-auto px-6 h-16 flex items-center gap-6">
          <span className="text-xl font-black tracking-tight">THREADLINE</span>
          <div className="relative flex-1 max-w-md">
            <Search className="w-4 h-4 absolute left-3 top-2.5 text-stone-400" />
            <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search products" className="w-full pl-9 pr-3 py-2 rounded-full bg-stone-100 text-sm outline-none" />
          </div>
          <button onClick={() => setCartOpen(true)} className="ml-auto relative p-2" aria-label="Open cart">
            <ShoppingBag className="w-6 h-6" />
            {itemCount > 0 && <span className="absolute -top-0.5 -right-0.5 bg-stone-900 text-white text-[10px] w-5 h-5 rounded-full flex items-center justify-center">{itemCount}</span>}
          </button>
        </div>
      </header>

      <div className="bg-stone-900 text-stone-100 text-center text-xs py-2">Free shipping on orders over ${FREE_SHIPPING_AT} · Use WELCOME10 for 10% off</div>

      <main className="max-w-6xl mx-auto px-6 py-8">
        <div className="flex items-center gap-3 mb-6 flex-wrap">
          {categories.map((c) => (
            <button key={c} onClick={() => setCategory(c)} className={`px-4 py-1.5 rounded-full text-sm ${category === c ? 'bg-stone-900 text-white' : 'bg-white border border-stone-300'}`}>{c}</button>
          ))}
          <span className="ml-auto flex items-center gap-2 text-sm text-stone-500"><SlidersHorizontal className="w-4 h-4" /> Under ${maxPrice}</span>
          <input type="range" min={30} max={250} step={10} value={maxPrice} onChange={(e) => setMaxPrice(Number(e.target.value))} className="accent-stone-900" />
          <select value={sort} onChange={(e) => setSort(e.target.value)} className="border border-stone-300 rounded-lg px-2 py-1.5 text-sm bg-white">
            <option value="featured">Featured</option>
            <option value="price-asc">Price: low to high</option>
            <option value="price-desc">Price: high to low</option>
            <option value="rating">Top rated</option>
          </select>
        </div>

        {products.length === 0 ? (
          <p className="text-center text-stone-400 py-20">No products match your filters.</p>
        ) : (
          <motion.div layout className="grid grid-cols-4 gap-6">
            {products.map((p) => (
              <motion.article layout key={p.id} initial={{ opacity: 0 }} animate={{ opacity: 1 }} className="group">
                <div className="relative rounded-2xl overflow-hidden cursor-pointer" onClick={() => openQuickView(p)}>
                  <ProductArt product={p} color={p.colors[0] === '#ffffff' ? '#a8a29e' : p.colors[0]} className="h-64" />
                  {p.badge && <span className="absolute top-3 left-3 bg-white text-xs font-semibold px-2 py-1 rounded-full">{p.badge}</span>}
                  <button
                    onClick={(e) => { e.stopPropagation(); setWishlist((w) => (w.includes(p.id) ? w.filter((x) => x !== p.id) : [...w, p.id])); }}
                    className="absolute top-3 right-3 bg-white rounded-full p-1.5"
                    aria-label="Add to wishlist"
                  >
                    <Heart className={`w-4 h-4 ${wishlist.includes(p.id) ? 'fill-rose-500 text-rose-500' : ''}`} />
                  </button>
                  <span className="absolute bottom-3 inset-x-3 bg-white/90 text-center text-sm font-medium py-2 rounded-lg opacity-0 group-hover:opacity-100 transition">Quick view</span>
                </div>
                <div className="mt-3 flex items-start justify-between">
                  <div>
                    <h3 className="text-sm font-medium">{p.name}</h3>
                    <Rating value={p.rating} count={p.reviews} />
                  </div>
                  <span className="font-semibold">${p.price}</span>
                </div>
                <div className="flex gap-1 mt-2">{p.colors.map((c) => <span key={c} className="w-3 h-3 rounded-full border border-stone-300" style={{ background: c }} />)}</div>
              </motion.article>
            ))}
          </motion.div>
        )}
      </main>

      <AnimatePresence>
        {quickView && (
          <motion.div className="fixed inset-0 z-30 bg-black/40 flex items-center justify-center" initial={{ opacity: 0 }} animate={{ opacity: 1 }} exit={{ opacity: 0 }} onClick={() => setQuickView(null)}>
            <motion.div initial={{ scale: 0.95, y: 20 }} animate={{ scale: 1, y: 0 }} exit={{ scale: 0.95, y: 20 }} className="bg-white rounded-2xl overflow-hidden w-[760px] grid grid-cols-2" onClick={(e) => e.stopPropagation()}>
              <ProductArt product={quickView} color={selection.color === '#ffffff' ? '#a8a29e' : selection.color} className="h-full min-h-[360px]" />
              <div className="p-6 flex flex-col">
                <div className="flex justify-between items-start">
                  <div>
                    <p className="text-xs text-stone-500 uppercase tracking-wide">{quickView.category}</p>
                    <h2 className="text-xl font-bold">{quickView.name}</h2>
                  </div>
                  <button onClick={() => setQuickView(null)} aria-label="Close"><X className="w-5 h-5" /></button>
                </div>
                <p className="text-2xl font-semibold mt-2">${quickView.price}</p>
                <Rating value={quickView.rating} count={quickView.reviews} />
                <p className="text-sm font-medium mt-5">Colour</p>
                <div className="flex gap-2 mt-2">
                  {quickView.colors.map((c) => (
                    <button key={c} onClick={() => setSelection((s) => ({ ...s, color: c }))} className={`w-8 h-8 rounded-full border-2 ${selection.color === c ? 'border-stone-900' : 'border-stone-200'}`} style={{ background: c }} aria-label={`Colour ${c}`} />
                  ))}
                </div>
                <p className="text-sm font-medium mt-5">Size</p>
                <div className="flex flex-wrap gap-2 mt-2">
                  {quickView.sizes.map((s) => (
                    <button key={s} onClick={() => setSelection((sel) => ({ ...sel, size: s }))} className={`min-w-[44px] px-3 py-2 rounded-lg border text-sm ${selection.size === s ? 'bg-stone-900 text-white border-stone-900' : 'border-stone-300'}`}>{s}</button>
                  ))}
                </div>
                {!selection.size && <p className="text-xs text-stone-500 mt-2">Select a size to continue</p>}
                <button onClick={addToCart} disabled={!selection.size} className="mt-auto w-full py-3 rounded-xl bg-stone-900 text-white font-semibold disabled:opacity-40">Add to bag</button>
              </div>
            </motion.div>
          </motion.div>
        )}
      </AnimatePresence>

      <AnimatePresence>
        {cartOpen && (
          <>
            <motion.div className="fixed inset-0 z-30 bg-black/30" initial={{ opacity: 0 }} animate={{ opacity: 1 }} exit={{ opacity: 0 }} onClick={() => setCartOpen(false)} />
            <motion.aside className="fixed top-0 right-0 z-40 h-full w-96 bg-white shadow-2xl flex flex-col" initial={{ x: '100%' }} animate={{ x: 0 }} exit={{ x: '100%' }} transition={{ type: 'spring', damping: 30, stiffness: 300 }}>
              <div className="flex items-center justify-between p-5 border-b border-stone-200">
                <h2 className="font-semibold">Your bag ({itemCount})</h2>
                <button onClick={() => setCartOpen(false)} aria-label="Close cart"><X className="w-5 h-5" /></button>
              </div>
              {subtotal > 0 && subtotal < FREE_SHIPPING_AT && (
                <div className="px-5 pt-4">
                  <p className="text-xs text-stone-500">Add ${(FREE_SHIPPING_AT - subtotal).toFixed(2)} more for free shipping</p>
                  <div className="h-1.5 bg-stone-100 rounded-full mt-1"><div className="h-full bg-emerald-500 rounded-full" style={{ width: `${(subtotal / FREE_SHIPPING_AT) * 100}%` }} /></div>
                </div>
              )}
              <ul className="flex-1 overflow-y-auto p-5 space-y-4">
                {lines.length === 0 && <li className="text-center text-stone-400 py-16">Your bag is empty.</li>}
                {lines.map((l) => (
                  <li key={l.key} className="flex gap-3">
                    <ProductArt product={l.product} color={l.color === '#ffffff' ? '#a8a29e' : l.color} className="w-20 h-24 rounded-lg" />
                    <div className="flex-1">
                      <p className="text-sm font-medium">{l.product.name}</p>
                      <p className="text-xs text-stone-500">Size {l.size}</p>
                      <div className="flex items-center gap-2 mt-2">
                        <button onClick={() => dispatch({ type: 'qty', key: l.key, delta: -1 })} className="p-1 rounded border border-stone-300" aria-label="Decrease"><Minus className="w-3 h-3" /></button>
                        <span className="text-sm w-5 text-center">{l.qty}</span>
                        <button onClick={() => dispatch({ type: 'qty', key: l.key, delta: 1 })} className="p-1 rounded border border-stone-300" aria-label="Increase"><Plus className="w-3 h-3" /></button>
                        <button onClick={() => dispatch({ type: 'remove', key: l.key })} className="ml-auto text-xs text-stone-400 hover:text-rose-600">Remove</button>
                      </div>
                    </div>
                    <span className="text-sm font-semibold">${(l.qty * l.product.price).toFixed(2)}</span>
                  </li>
                ))}
              </ul>
              <div className="border-t border-stone-200 p-5 space-y-3">
                <form onSubmit={applyPromo} className="flex gap-2">
                  <input value={promoInput} onChange={(e) => setPromoInput(e.target.value)} placeholder="Promo code" className="flex-1 border border-stone-300 rounded-lg px-3 py-1.5 text-sm uppercase" />
                  <button className="px-3 rounded-lg border border-stone-900 text-sm">Apply</button>
                </form>
                {promoError && <p className="text-xs text-rose-600">{promoError}</p>}
                {promo && <p className="text-xs text-emerald-700 flex justify-between">Code {promo.code} applied <button onClick={() => setPromo(null)} className="underline">remove</button></p>}
                <div className="text-sm space-y-1">
                  <div className="flex justify-between"><span>Subtotal</span><span>${subtotal.toFixed(2)}</span></div>
                  {discount > 0 && <div className="flex justify-between text-emerald-700"><span>Discount</span><span>−${discount.toFixed(2)}</span></div>}
                  <div className="flex justify-between"><span>Shipping</span><span>{shipping ? `$${shipping.toFixed(2)}` : 'Free'}</span></div>
                  <div className="flex justify-between font-bold text-base pt-1"><span>Total</span><span>${total.toFixed(2)}</span></div>
                </div>
                <button onClick={() => { setCartOpen(false); setCheckout(true); }} disabled={!lines.length} className="w-full py-3 rounded-xl bg-stone-900 text-white font-semibold disabled:opacity-40">Checkout</button>
              </div>
            </motion.aside>
          </>
        )}
      </AnimatePresence>
    </div>
  );
}

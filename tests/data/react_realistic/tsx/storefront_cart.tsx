// Storefront Cart: product grid with category filters and sorting, slide-over cart with quantities, coupon codes and a checkout form
import { useMemo, useReducer, useState } from 'react';
import type { FormEvent } from 'react';
import { ShoppingCart, Star, Plus, Minus, Trash2, X, Tag, Truck, Search, Check } from 'lucide-react';

type Category = 'all' | 'audio' | 'wearables' | 'home' | 'accessories';
type SortBy = 'featured' | 'price-asc' | 'price-desc' | 'rating';

interface Product {
  id: number;
  name: string;
  price: number;
  category: Exclude<Category, 'all'>;
  rating: number;
  reviews: number;
  hue: number;
  stock: number;
}

interface CartLine {
  productId: number;
  qty: number;
}

type CartAction =
  | { type: 'add'; productId: number; max: number }
  | { type: 'setQty'; productId: number; qty: number; max: number }
  | { type: 'remove'; productId: number }
  | { type: 'clear' };

interface Coupon {
  code: string;
  kind: 'percent' | 'fixed' | 'shipping';
  amount: number;
  minSubtotal: number;
}

const PRODUCTS: Product[] = [
  { id: 1, name: 'Aurora Wireless Headphones', price: 189, category: 'audio', rating: 4.6, reviews: 812, hue: 230, stock: 12 },
  { id: 2, name: 'Pulse Mini Speaker', price: 59, category: 'audio', rating: 4.3, reviews: 341, hue: 10, stock: 30 },
  { id: 3, name: 'Stride Fitness Band', price: 79, category: 'wearables', rating: 4.1, reviews: 522, hue: 150, stock: 4 },
  { id: 4, name: 'Orbit Smartwatch', price: 249, category: 'wearables', rating: 4.7, reviews: 1290, hue: 280, stock: 8 },
  { id: 5, name: 'Glow Desk Lamp', price: 45, category: 'home', rating: 4.4, reviews: 210, hue: 45, stock: 25 },
  { id: 6, name: 'Breeze Air Purifier', price: 139, category: 'home', rating: 4.2, reviews: 98, hue: 190, stock: 6 },
  { id: 7, name: 'Nimbus Charging Pad', price: 29, category: 'accessories', rating: 3.9, reviews: 450, hue: 320, stock: 50 },
  { id: 8, name: 'Trek Laptop Sleeve', price: 35, category: 'accessories', rating: 4.5, reviews: 167, hue: 100, stock: 18 },
  { id: 9, name: 'Echo Buds Pro', price: 129, category: 'audio', rating: 4.5, reviews: 980, hue: 200, stock: 0 },
];

const COUPONS: Coupon[] = [
  { code: 'WELCOME10', kind: 'percent', amount: 10, minSubtotal: 0 },
  { code: 'SAVE25', kind: 'fixed', amount: 25, minSubtotal: 150 },
  { code: 'FREESHIP', kind: 'shipping', amount: 0, minSubtotal: 40 },
];

const FREE_SHIPPING_AT = 100;
const SHIPPING_FEE = 7.99;
const TAX_RATE = 0.08;

function cartReducer(state: CartLine[], action: CartAction): CartLine[] {
  switch (action.type) {
    case 'add': {
      const line = state.find((l) => l.productId === action.productId);
      if (line) return state.map((l) => (l.productId === action.productId ? { ...l, qty: Math.min(l.qty + 1, action.max) } : l));
      return [...state, { productId: action.productId, qty: 1 }];
    }
    case 'setQty':
      if (action.qty <= 0) return state.filter((l) => l.productId !== action.productId);
      return state.map((l) => (l.productId === action.productId ? { ...l, qty: Math.min(action.qty, action.max) } : l));
    case 'remove':
      return state.filter((l) => l.productId !== action.productId);
    case 'clear':
      return [];
  }
}

const money = (n: number) => `$${n.toFixed(2)}`;

function Stars({ rating }: { rating: number }) {
  return (
    <span className="flex items-center gap-0.5">
      {[1, 2, 3, 4, 5].map((i) => (
        <Star key={i} size={12} className={i <= Math.round(rating) ? 'fill-amber-400 text-amber-400' : 'text-gray-300'} />
      ))}
    </span>
  );
}

interface CheckoutForm {
  name: string;
  address: string;
  card: string;
  expiry: string;
}

export default function App() {
  const [cart, dispatch] = useReducer(cartReducer, [{ productId: 1, qty: 1 }]);
  const [category, setCategory] = useState<Category>('all');
  const [sortBy, setSortBy] = useState<SortBy>('featured');
  const [search, setSearch] = useState('');
  const [cartOpen, setCartOpen] = useState(false);
  const [couponInput, setCouponInput] = useState('');
  const [coupon, setCoupon] = useState<Coupon | null>(null);
  const [couponError, setCouponError] = useState('');
  const [checkout, setCheckout] = useState(false);
  const [form, setForm] = useState<CheckoutForm>({ name: '', address: '', card: '', expiry: '' });
  const [formErrors, setFormErrors] = useState<Partial<Record<keyof CheckoutForm, string>>>({});
  const [orderId, setOrderId] = useState<string | null>(null);

  const products = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = PRODUCTS.filter((p) => (category === 'all' || p.category === category) && p.name.toLowerCase().includes(q));
    const sorted = [...list];
    if (sortBy === 'price-asc') sorted.sort((a, b) => a.price - b.price);
    if (sortBy === 'price-desc') sorted.sort((a, b) => b.price - a.price);
    if (sortBy === 'rating') sorted.sort((a, b) => b.rating - a.rating);
    return sorted;
  }, [category, sortBy, search]);

  const lines = useMemo(
    () =>
      cart
        .map((l) => ({ ...l, product: PRODUCTS.find((p) => p.id === l.productId) }))
        .filter((l): l is CartLine & { product: Product } => l.product !== undefined),
    [cart],
  );

  const totals = useMemo(() => {
    const subtotal = lines.reduce((s, l) => s + l.product.price * l.qty, 0);
    let discount = 0;
    let shipping = subtotal === 0 || subtotal >= FREE_SHIPPING_AT ? 0 : SHIPPING_FEE;
    const couponValid = coupon !== null && subtotal >= coupon.minSubtotal;
    if (coupon && couponValid) {
      if (coupon.kind === 'percent') discount = (subtotal * coupon.amount) / 100;
      if (coupon.kind === 'fixed') discount = Math.min(coupon.amount, subtotal);
      if (coupon.kind === 'shipping') shipping = 0;
    }
    const tax = (subtotal - discount) * TAX_RATE;
    return { subtotal, discount, shipping, tax, total: subtotal - discount + shipping + tax, couponValid, count: lines.reduce((s, l) => s + l.qty, 0) };
  }, [lines, coupon]);

  const applyCoupon = () => {
    const found = COUPONS.find((c) => c.code === couponInput.trim().toUpperCase());
    if (!found) {
      setCouponError('That code is not valid');
      return;
    }
    if (totals.subtotal < found.minSubtotal) {
      setCouponError(`Requires a subtotal of ${money(found.minSubtotal)}`);
      return;
    }
    setCoupon(found);
    setCouponError('');
    setCouponInput('');
  };

  const placeOrder = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const errs: Partial<Record<keyof CheckoutForm, string>> = {};
    if (form.name.trim().split(/\s+/).length < 2) errs.name = 'Enter your full name';
    if (form.address.trim().length < 8) errs.address = 'Enter a shipping address';
    if (!/^\d{16}$/.test(form.card.replace(/\s/g, ''))) errs.card = 'Card number must be 16 digits';
    if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test(form.expiry)) errs.expiry = 'Use MM/YY';
    setFormErrors(errs);
    if (Object.keys(errs).length) return;
    setOrderId(`ORD-${Math.floor(100000 + Math.random() * 900000)}`);
    dispatch({ type: 'clear' });
    setCoupon(null);
    setCheckout(false);
  };

  return (
    <div className="min-h-screen bg-stone-50">
      <header className="sticky top-0 z-10 flex items-center justify-between border-b border-stone-200 bg-white/90 px-8 py-4 backdrop-blur">
        <span className="text-xl font-black tracking-tight">nova<span className="text-emerald-600">.</span>store</span>
        <label className="flex w-80 items-center gap-2 rounded-full bg-stone-100 px-4 py-2">
          <Search size={16} className="text-stone-400" />
          <input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Search products" className="w-full bg-transparent text-sm outline-none" />
        </label>
        <button onClick={() => setCartOpen(true)} className="relative rounded-full p-2 hover:bg-stone-100" aria-label="Open cart">
          <ShoppingCart size={22} />
          {totals.count > 0 && (
            <span className="absolute -right-1 -top-1 flex h-5 w-5 items-center justify-center rounded-full bg-emerald-600 text-[11px] font-bold text-white">{totals.count}</span>
          )}
        </button>
      </header>

      {orderId && (
        <div className="mx-8 mt-4 flex items-center justify-between rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
          <span className="flex items-center gap-2">
            <Check size={16} /> Order {orderId} placed. A receipt is on its way.
          </span>
          <button onClick={() => setOrderId(null)} aria-label="Dismiss">
            <X size={16} />
          </button>
        </div>
      )}

      <main className="px-8 py-6">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
          <div className="flex gap-2">
            {(['all', 'audio', 'wearables', 'home', 'accessories'] as Category[]).map((c) => (
              <button
                key={c}
                onClick={() => setCategory(c)}
                className={`rounded-full px-4 py-1.5 text-sm capitalize ${category === c ? 'bg-stone-900 text-white' : 'bg-white text-stone-600 ring-1 ring-stone-200 hover:bg-stone-100'}`}
              >
                {c}
              </button>
            ))}
          </div>
          <select value={sortBy} onChange={(e) => setSortBy(e.target.value as SortBy)} className="rounded-lg border border-stone-200 bg-white px-3 py-2 text-sm">
            <option value="featured">Featured</option>
            <option value="price-asc">Price: low to high</option>
            <option value="price-desc">Price: high to low</option>
            <option value="rating">Top rated</option>
          </select>
        </div>

        <div className="grid grid-cols-2 gap-6 md:grid-cols-3 lg:grid-cols-4">
          {products.map((p) => {
            const inCart = cart.find((l) => l.productId === p.id)?.qty ?? 0;
            return (
              <article key={p.id} className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-stone-200">
                <div className="flex h-40 items-center justify-center text-4xl font-black text-white/90" style={{ background: `linear-gradient(135deg, hsl(${p.hue} 70% 60%), hsl(${(p.hue + 40) % 360} 70% 45%))` }}>
                  {p.name.charAt(0)}
                </div>
                <div className="flex flex-1 flex-col p-4">
                  <span className="text-xs uppercase tracking-wide text-stone-400">{p.category}</span>
                  <h3 className="mt-1 font-semibold text-stone-900">{p.name}</h3>
                  <div className="mt-1 flex items-center gap-2 text-xs text-stone-500">
                    <Stars rating={p.rating} /> {p.rating} ({p.reviews})
                  </div>
                  <div className="mt-auto flex items-center justify-between pt-4">
                    <span className="text-lg font-bold">{money(p.price)}</span>
                    <button
                      disabled={p.stock === 0 || inCart >= p.stock}
                      onClick={() => dispatch({ type: 'add', productId: p.id, max: p.stock })}
                      className="rounded-full bg-emerald-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-700 disabled:bg-stone-300"
                    >
                      {p.stock === 0 ? 'Sold out' : inCart > 0 ? `In cart (${inCart})` : 'Add to cart'}
                    </button>
                  </div>
                  {p.stock > 0 && p.stock < 5 && <span className="mt-2 text-xs text-amber-600">Only {p.stock} left</span>}
                </div>
              </article>
            );
          })}
        </div>
        {products.length === 0 && <p className="py-20 text-center text-stone-400">No products match your filters.</p>}
      </main>

      {cartOpen && (
        <div className="fixed inset-0 z-20 flex justify-end bg-black/30" onClick={() => setCartOpen(false)}>
          <aside onClick={(e) => e.stopPropagation()} className="flex h-full w-[420px] flex-col bg-white shadow-2xl">
            <div className="flex items-center justify-between border-b border-stone-200 p-5">
              <h2 className="text-lg font-semibold">{checkout ? 'Checkout' : `Your cart (${totals.count})`}</h2>
              <button onClick={() => setCartOpen(false)} aria-label="Close cart">
                <X size={20} />
              </button>
            </div>

            {!checkout ? (
              <div className="flex-1 overflow-y-auto p-5">
                {lines.length === 0 && <p className="py-10 text-center text-stone-400">Your cart is empty.</p>}
                <ul className="space-y-4">
                  {lines.map((l) => (
                    <li key={l.productId} className="flex gap-3">
                      <div className="h-16 w-16 shrink-0 rounded-lg" style={{ background: `hsl(${l.product.hue} 70% 60%)` }} />
                      <div className="flex-1">
                        <div className="text-sm font-medium">{l.product.name}</div>
                        <div className="text-xs text-stone-500">{money(l.product.price)} each</div>
                        <div className="mt-2 flex items-center gap-2">
                          <button onClick={() => dispatch({ type: 'setQty', productId: l.productId, qty: l.qty - 1, max: l.product.stock })} className="rounded border border-stone-200 p-1" aria-label="Decrease">
                            <Minus size={12} />
                          </button>
                          <span className="w-6 text-center text-sm">{l.qty}</span>
                          <button onClick={() => dispatch({ type: 'setQty', productId: l.productId, qty: l.qty + 1, max: l.product.stock })} className="rounded border border-stone-200 p-1" aria-label="Increase">
                            <Plus size={12} />
                          </button>
                          <button onClick={() => dispatch({ type: 'remove', productId: l.productId })} className="ml-auto text-stone-400 hover:text-red-500" aria-label="Remove">
                            <Trash2 size={14} />
                          </button>
                        </div>
                      </div>
                      <div className="text-sm font-semibold">{money(l.product.price * l.qty)}</div>
                    </li>
                  ))}
                </ul>
                {lines.length > 0 && totals.subtotal < FREE_SHIPPING_AT && (
                  <div className="mt-6 rounded-lg bg-stone-100 p-3 text-xs text-stone-600">
                    <div className="mb-1 flex items-center gap-1">
                      <Truck size={14} /> Add {money(FREE_SHIPPING_AT - totals.subtotal)} more for free shipping
                    </div>
                    <div className="h-1.5 rounded-full bg-stone-200">
                      <div className="h-full rounded-full bg-emerald-500" style={{ width: `${(totals.subtotal / FREE_SHIPPING_AT) * 100}%` }} />
                    </div>
                  </div>
                )}
                <div className="mt-6">
                  <div className="flex gap-2">
                    <input
                      value={couponInput}
                      onChange={(e) => setCouponInput(e.target.value)}
                      placeholder="Coupon code"
                      className="flex-1 rounded-lg border border-stone-200 px-3 py-2 text-sm uppercase"
                    />
                    <button onClick={applyCoupon} disabled={!couponInput.trim()} className="rounded-lg bg-stone-900 px-3 text-sm text-white disabled:opacity-40">
                      Apply
                    </button>
                  </div>
                  {couponError && <p className="mt-1 text-xs text-red-600">{couponError}</p>}
                  {coupon && (
                    <div className={`mt-2 flex items-center justify-between rounded-lg px-3 py-2 text-xs ${totals.couponValid ? 'bg-emerald-50 text-emerald-700' : 'bg-amber-50 text-amber-700'}`}>
                      <span className="flex items-center gap-1">
                        <Tag size={12} /> {coupon.code}
                        {!totals.couponValid && ` needs ${money(coupon.minSubtotal)}`}
                      </span>
                      <button onClick={() => setCoupon(null)} aria-label="Remove coupon">
                        <X size={12} />
                      </button>
                    </div>
                  )}
                </div>
              </div>
            ) : (
              <form id="checkout" onSubmit={placeOrder} className="flex-1 space-y-3 overflow-y-auto p-5">
                {(
                  [
                    ['name', 'Full name', 'Jane Doe'],
                    ['address', 'Shipping address', '221B Baker Street, London'],
                    ['card', 'Card number', '4242 4242 4242 4242'],
                    ['expiry', 'Expiry', 'MM/YY'],
                  ] as [keyof CheckoutForm, string, string][]
                ).map(([key, label, placeholder]) => (
                  <label key={key} className="block text-sm">
                    <span className="mb-1 block font-medium">{label}</span>
                    <input
                      value={form[key]}
                      placeholder={placeholder}
                      onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
                      className={`w-full rounded-lg border px-3 py-2 ${formErrors[key] ? 'border-red-400' : 'border-stone-200'}`}
                    />
                    {formErrors[key] && <span className="text-xs text-red-600">{formErrors[key]}</span>}
                  </label>
                ))}
              </form>
            )}

            <div className="space-y-1 border-t border-stone-200 p-5 text-sm">
              <div className="flex justify-between">
                <span>Subtotal</span>
                <span>{money(totals.subtotal)}</span>
              </div>
              {totals.discount > 0 && (
                <div className="flex justify-between text-emerald-700">
                  <span>Discount</span>
                  <span>−{money(totals.discount)}</span>
                </div>
              )}
              <div className="flex justify-between">
                <span>Shipping</span>
                <span>{totals.shipping === 0 ? 'Free' : money(totals.shipping)}</span>
              </div>
              <div className="flex justify-between">
                <span>Tax</span>
                <span>{money(totals.tax)}</span>
              </div>
              <div className="flex justify-between pt-2 text-base font-bold">
                <span>Total</span>
                <span>{money(totals.total)}</span>
              </div>
              {checkout ? (
                <div className="flex gap-2 pt-3">
                  <button onClick={() => setCheckout(false)} className="flex-1 rounded-full border border-stone-300 py-3 font-medium">
                    Back
                  </button>
                  <button type="submit" form="checkout" className="flex-1 rounded-full bg-emerald-600 py-3 font-semibold text-white hover:bg-emerald-700">
                    Pay {money(totals.total)}
                  </button>
                </div>
              ) : (
                <button
                  disabled={lines.length === 0}
                  onClick={() => setCheckout(true)}
                  className="mt-3 w-full rounded-full bg-emerald-600 py-3 font-semibold text-white hover:bg-emerald-700 disabled:bg-stone-300"
                >
                  Checkout
                </button>
              )}
            </div>
          </aside>
        </div>
      )}
    </div>
  );
}

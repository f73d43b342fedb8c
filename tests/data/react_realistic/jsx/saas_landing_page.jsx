// Launchpad SaaS Landing Page: hero, feature grid, pricing toggle, testimonials carousel, FAQ and newsletter signup
import { useState, useEffect } from 'react';
import { motion, AnimatePresence } from 'framer-motion';
import { Zap, Shield, BarChart3, Globe, Check, ChevronDown, Menu, X, Star, ArrowRight, Sparkles } from 'lucide-react';

const FEATURES = [
  { icon: Zap, title: 'Instant deploys', text: 'Push to main and your site is live worldwide in under ten seconds.' },
  { icon: Shield, title: 'Secure by default', text: 'Automatic TLS, DDoS protection and role-based access for every project.' },
  { icon: BarChart3, title: 'Real-time analytics', text: 'See visitors, conversions and performance without adding a script.' },
  { icon: Globe, title: 'Edge network', text: 'Served from 120+ locations so every user gets a fast first paint.' },
];

const PLANS = [
  { name: 'Starter', monthly: 0, features: ['1 project', 'Community support', '10 GB bandwidth'], highlight: false },
  { name: 'Pro', monthly: 24, features: ['Unlimited projects', 'Priority support', '1 TB bandwidth', 'Preview environments'], highlight: true },
  { name: 'Business', monthly: 79, features: ['Everything in Pro', 'SSO and audit logs', 'Dedicated success manager', '99.99% SLA'], highlight: false },
];

const TESTIMONIALS = [
  { quote: 'We cut our release cycle from a week to an afternoon. The team actually enjoys shipping now.', name: 'Priya Raman', role: 'CTO, Fieldnote' },
  { quote: 'Analytics that load faster than our old dashboard ever did. Setup took five minutes.', name: 'Marcus Hale', role: 'Growth Lead, Parcelly' },
  { quote: 'The preview links changed how design and engineering review work together.', name: 'Lena Okafor', role: 'Design Director, Brightside' },
];

const FAQS = [
  { q: 'Can I switch plans later?', a: 'Yes. Upgrades take effect immediately and downgrades apply at the end of your billing period.' },
  { q: 'Is there a free trial for Pro?', a: 'Every new workspace gets 14 days of Pro features with no credit card required.' },
  { q: 'Do you offer discounts for nonprofits?', a: 'Registered nonprofits and open-source projects get 50% off any paid plan.' },
  { q: 'Where is my data stored?', a: 'You choose the primary region for each project: US, EU or Asia Pacific.' },
];

function useRotatingIndex(length, delay) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setIndex((i) => (i + 1) % length), delay);
    return () => clearInterval(id);
  }, [length, delay]);
  return [index, setIndex];
}

export default function App() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [yearly, setYearly] = useState(true);
  const [openFaq, setOpenFaq] = useState(0);
  const [email, setEmail] = useState('');
  const [formState, setFormState] = useState({ status: 'idle', message: '' });
  const [testimonial, setTestimonial] = useRotatingIndex(TESTIMONIALS.length, 6000);

  const subscribe = (e) => {
    e.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email)) {
      setFormState({ status: 'error', message: 'Please enter a valid email address.' });
      return;
    }
    setFormState({ status: 'loading', message: '' });
    setTimeout(() => {
      setFormState({ status: 'success', message: `Thanks! We sent a confirmation to ${email}.` });
      setEmail('');
    }, 800);
  };

  const price = (plan) => (yearly ? Math.round(plan.monthly * 0.8) : plan.monthly);

  return (
    <div className="min-h-screen bg-white text-slate-900">
      <header className="sticky top-0 z-20 bg-white/80 backdrop-blur border-b border-slate-100">
        <div className="max-w-6xl mx-auto px-6 h-16 flex items-center justify-between">
          <a href="#top" className="flex items-center gap-2 font-bold text-lg">
            <Sparkles className="w-5 h-5 text-violet-600" /> Launchpad
          </a>
          <nav className="hidden md:flex items-center gap-8 text-sm text-slate-600">
            <a href="#features" className="hover:text-slate-900">Features</a>
            <a href="#pricing" className="hover:text-slate-900">Pricing</a>
            <a href="#faq" className="hover:text-slate-900">FAQ</a>
            <button className="bg-slate-900 text-white px-4 py-2 rounded-lg hover:bg-slate-700">Get started</button>
          </nav>
          <button className="md:hidden" onClick={() => setMenuOpen((o) => !o)} aria-label="Toggle menu">
            {menuOpen ? <X className="w-6 h-6" /> : <Menu className="w-6 h-6" />}
          </button>
        </div>
        <AnimatePresence>
          {menuOpen && (
            <motion.nav
              initial={{ height: 0, opacity: 0 }}
              animate={{ height: 'auto', opacity: 1 }}
              exit={{ height: 0, opacity: 0 }}
              className="md:hidden overflow-hidden px-6 pb-4 flex flex-col gap-3 text-sm"
            >
              <a href="#features" onClick={() => setMenuOpen(false)}>Features</a>
              <a href="#pricing" onClick={() => setMenuOpen(false)}>Pricing</a>
              <a href="#faq" onClick={() => setMenuOpen(false)}>FAQ</a>
            </motion.nav>
          )}
        </AnimatePresence>
      </header>

      <section id="top" className="relative overflow-hidden">
        <div className="absolute inset-0 bg-gradient-to-b from-violet-50 to-white" />
        <div className="relative max-w-6xl mx-auto px-6 pt-24 pb-20 text-center">
          <motion.span
            initial={{ opacity: 0, y: 10 }}
            animate={{ opacity: 1, y: 0 }}
            className="inline-flex items-center gap-2 text-xs font-semibold bg-violet-100 text-violet-700 px-3 py-1 rounded-full"
          >
            New: edge functions are generally available
          </motion.span>
          <motion.h1
            initial={{ opacity: 0, y: 20 }}
            animate={{ opacity: 1, y: 0 }}
            transition={{ delay: 0.1 }}
            className="text-6xl font-extrabold tracking-tight mt-6 leading-tight"
          >
            Ship your web app<br />
            <span className="text-transparent bg-clip-text bg-gradient-to-r from-violet-600 to-fuchsia-500">before lunch</span>
          </motion.h1>
          <p className="text-lg text-slate-600 max-w-2xl mx-auto mt-6">
            Launchpad builds, deploys and scales your frontend automatically, so your team can focus on the product instead of the pipeline.
          </p>
          <div className="flex justify-center gap-4 mt-10">
            <button className="bg-violet-600 hover:bg-violet-700 text-white font-semibold px-6 py-3 rounded-xl flex items-center gap-2">
              Start free <ArrowRight className="w-4 h-4" />
            </button>
            <button className="border border-slate-300 hover:border-slate-400 font-semibold px-6 py-3 rounded-xl">Book a demo</button>
          </div>
          <div className="flex justify-center gap-10 mt-14 text-slate-400 text-sm font-semibold uppercase tracking-widest">
            {['Fieldnote', 'Parcelly', 'Brightside', 'Orbital', 'Kitewave'].map((logo) => <span key={logo}>{logo}</span>)}
          </div>
        </div>
      </section>

      <section id="features" className="max-w-6xl mx-auto px-6 py-20">
        <h2 className="text-3xl font-bold text-center">Everything you need to go live</h2>
        <p className="text-slate-500 text-center mt-3">No servers to manage. No YAML to maintain.</p>
        <div className="grid grid-cols-1 md:grid-cols-4 gap-6 mt-12">
          {FEATURES.map(({ icon: Icon, title, text }, i) => (
            <motion.div
              key={title}
              initial={{ opacity: 0, y: 20 }}
              whileInView={{ opacity: 1, y: 0 }}
              viewport={{ once: true }}
              transition={{ delay: i * 0.08 }}
              className="rounded-2xl border border-slate-100 p-6 hover:shadow-lg transition-shadow"
            >
              <div className="w-10 h-10 rounded-lg bg-violet-100 text-violet-600 flex items-center justify-center">
                <Icon className="w-5 h-5" />
              </div>
              <h3 className="font-semibold mt-4">{title}</h3>
              <p className="text-sm text-slate-500 mt-2">{text}</p>
            </motion.div>
          ))}
        </div>
      </section>

      <section id="pricing" className="bg-slate-50 py-20">
        <div className="max-w-6xl mx-auto px-6">
          <h2 className="text-3xl font-bold text-center">Simple, predictable pricing</h2>
          <div className="flex items-center justify-center gap-3 mt-6 text-sm">
            <span className={yearly ? 'text-slate-400' : 'font-semibold'}>Monthly</span>
            <button
              onClick={() => setYearly((y) => !y)}
              className={`w-12 h-6 rounded-full relative transition-colors ${yearly ? 'bg-violet-600' : 'bg-slate-300'}`}
              aria-label="Toggle yearly billing"
            >
              <span className={`absolute top-0.5 w-5 h-5 bg-white rounded-full transition-all ${yearly ? 'left-6' : 'left-0.5'}`} />
            </button>
            <span className={yearly ? 'font-semibold' : 'text-slate-400'}>Yearly <span className="text-emerald-600">(save 20%)</span></span>
          </div>
          <div className="grid grid-cols-1 md:grid-cols-3 gap-6 mt-12">
            {PLANS.map((plan) => (
              <div key={plan.name} className={`rounded-2xl p-8 bg-white ${plan.highlight ? 'ring-2 ring-violet-600 shadow-xl scale-105' : 'border border-slate-200'}`}>
                {plan.highlight && <span className="text-xs font-semibold text-violet-600 uppercase tracking-wide">Most popular</span>}
                <h3 className="text-xl font-bold mt-1">{plan.name}</h3>
                <p className="mt-4"><span className="text-4xl font-extrabold">${price(plan)}</span><span className="text-slate-500">/mo</span></p>
                {yearly && plan.monthly > 0 && <p className="text-xs text-slate-400 mt-1">billed ${price(plan) * 12} yearly</p>}
                <ul className="mt-6 space-y-3 text-sm">
                  {plan.features.map((f) => (
                    <li key={f} className="flex items-center gap-2"><Check className="w-4 h-4 text-emerald-500" />{f}</li>
                  ))}
                </ul>
                <button className={`w-full mt-8 py-2.5 rounded-lg font-semibold ${plan.highlight ? 'bg-violet-600 text-white hover:bg-violet-700' : 'bg-slate-100 hover:bg-slate-200'}`}>
                  {plan.monthly === 0 ? 'Start for free' : `Choose ${plan.name}`}
                </button>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className="max-w-3xl mx-auto px-6 py-20 text-center">
        <div className="flex justify-center gap-1 text-amber-400 mb-6">
          {[0, 1, 2, 3, 4].map((i) => <Star key={i} className="w-5 h-5 fill-current" />)}
        </div>
        <div className="h-36">
          <AnimatePresence mode="wait">
            <motion.blockquote
              key={testimonial}
              initial={{ opacity: 0, x: 30 }}
              animate={{ opacity: 1, x: 0 }}
              exit={{ opacity: 0, x: -30 }}
              transition={{ duration: 0.3 }}
            >
              <p className="text-2xl font-medium leading-snug">&ldquo;{TESTIMONIALS[testimonial].quote}&rdquo;</p>
              <footer className="mt-4 text-sm text-slate-500">{TESTIMONIALS[testimonial].name} · {TESTIMONIALS[testimonial].role}</footer>
            </motion.blockquote>
          </AnimatePresence>
        </div>
        <div className="flex justify-center gap-2 mt-4">
          {TESTIMONIALS.map((t, i) => (
            <button key={t.name} onClick={() => setTestimonial(i)} className={`w-2.5 h-2.5 rounded-full ${i === testimonial ? 'bg-violet-600' : 'bg-slate-300'}`} aria-label={`Show testimonial ${i + 1}`} />
          ))}
        </div>
      </section>

      <section id="faq" className="max-w-3xl mx-auto px-6 pb-20">
        <h2 className="text-3xl font-bold text-center mb-8">Frequently asked questions</h2>
        <div className="divide-y divide-slate-200 border-y border-slate-200">
          {FAQS.map((item, i) => (
            <div key={item.q}>
              <button onClick={() => setOpenFaq(openFaq === i ? -1 : i)} className="w-full flex items-center justify-between py-4 text-left font-medium">
                {item.q}
                <ChevronDown className={`w-5 h-5 transition-transform ${openFaq === i ? 'rotate-180' : ''}`} />
              </button>
              {openFaq === i && <p className="pb-4 text-slate-600 text-sm">{item.a}</p>}
            </div>
          ))}
        </div>
      </section>

      <section className="bg-slate-900 text-white py-16">
        <div className="max-w-xl mx-auto px-6 text-center">
          <h2 className="text-2xl font-bold">Get product updates</h2>
          <p className="text-slate-400 mt-2 text-sm">One email a month. No spam, unsubscribe anytime.</p>
          <form onSubmit={subscribe} className="flex gap-2 mt-6" noValidate>
            <input
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="you@company.com"
              className="flex-1 px-4 py-3 rounded-lg bg-slate-800 border border-slate-700 focus:outline-none focus:border-violet-500"
            />
            <button disabled={formState.status === 'loading'} className="bg-violet-600 hover:bg-violet-500 disabled:opacity-60 px-5 rounded-lg font-semibold">
              {formState.status === 'loading' ? 'Sending…' : 'Subscribe'}
            </button>
          </form>
          {formState.message && (
            <p className={`mt-3 text-sm ${formState.status === 'error' ? 'text-rose-400' : 'text-emerald-400'}`}>{formState.message}</p>
          )}
        </div>
      </section>

      <footer className="py-8 text-center text-sm text-slate-500">© {new Date().getFullYear()} Launchpad Inc. All rights reserved.</footer>
    </div>
  );
}

/* C twin of oracle/codecs/jsonb.py canonical_at: binary JSON -> the canonical dict, one pass.

The Python code is the reference. canonical(buf, start, end) returns exactly the dict the pure
canonical_at returns for a document it reads ("type", "value", then "binary", or "opaque" and
"unsigned"), and None for anything else: any check the Python makes that fails (type bytes,
sizes, offsets, nesting, the work budget, DECIMAL/temporal payloads), a text that is not UTF-8
(the Python's "json_bytes"), arguments out of range. jsonb.canonical_at then runs the Python,
which raises the typed error at its offset, so errors are the Python's by construction.

Every read stays inside [start, end), itself inside the buffer; counts are checked against the
container's size before they drive a loop, so no count allocates; nesting stops at MAX_DEPTH as
in the Python. The checks may run in another order than the Python's: only whether one fails
matters here, and the budget only decreases, so "ever below zero" is order-free.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 100 /* JSON_DOCUMENT_MAX_DEPTH */
#define GCVT_WIDTH 34 /* MY_GCVT_MAX_FIELD_WIDTH */
#define MAX_DECPT_F 15 /* MAX_DECPT_FOR_F_FORMAT */

enum { SMALL_OBJECT, LARGE_OBJECT, SMALL_ARRAY, LARGE_ARRAY, LITERAL, INT16, UINT16, INT32, UINT32,
       INT64, UINT64, DOUBLE, STRING, OPAQUE = 0xF };
enum { MYSQL_TIMESTAMP = 7, MYSQL_DATE = 10, MYSQL_TIME = 11, MYSQL_DATETIME = 12,
       MYSQL_NEWDECIMAL = 246, MYSQL_VAR_STRING = 253 };

/* results of the walk: OK, UNUSUAL (give the document to the Python; no exception set) or
   FAILED (a Python exception is set, e.g. MemoryError) */
enum { OK = 0, UNUSUAL = -1, FAILED = -2 };

typedef struct {
    char *p;
    Py_ssize_t len, cap;
} Text;

typedef struct {
    const uint8_t *key; /* the key of this step, or NULL for an array index */
    Py_ssize_t n; /* key length, or the index */
} Step;

typedef struct {
    const uint8_t *b;
    Py_ssize_t budget; /* every child, key byte and string byte spends one unit */
    Py_ssize_t last; /* byte length of the value read last */
    int unfresh; /* laid out other than as MySQL writes a fresh document */
    Text out;
    PyObject *opaque, *unsigned_; /* the layout lists, made when first needed */
    Step steps[MAX_DEPTH + 1]; /* the path of the value being read */
} Walk;

static PyObject *s_type, *s_value, *s_json, *s_binary, *s_opaque, *s_unsigned, *s_path, *s_field_type,
    *s_data;

/* -- text buffer -------------------------------------------------------------------------------- */

static int grow(Text *t, Py_ssize_t need) {
    if (t->len + need <= t->cap)
        return OK;
    Py_ssize_t cap = t->cap * 2;
    if (cap < t->len + need)
        cap = t->len + need + 64;
    char *p = PyMem_Realloc(t->p, (size_t)cap);
    if (p == NULL) {
        PyErr_NoMemory();
        return FAILED;
    }
    t->p = p;
    t->cap = cap;
    return OK;
}

static int put(Text *t, const char *s, Py_ssize_t n) {
    if (grow(t, n))
        return FAILED;
    memcpy(t->p + t->len, s, (size_t)n);
    t->len += n;
    return OK;
}

#define PUTS(t, lit) put((t), (lit), (Py_ssize_t)(sizeof(lit) - 1))

/* quote_json_string: '"', '\\' and bytes below 0x20 escaped as MySQL's double_quote() does;
   bytes >= 0x80 pass through. */
static const char *const ESCAPES[0x20] = {
    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
    "\\b",     "\\t",     "\\n",     "\\u000b", "\\f",     "\\r",     "\\u000e", "\\u000f",
    "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
    "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f"};

static int quoted(Text *t, const uint8_t *s, Py_ssize_t n) {
    if (grow(t, n + 2))
        return FAILED;
    char *o = t->p + t->len;
    *o++ = '"';
    Py_ssize_t i = 0;
    for (; i < n; i++) {
        uint8_t c = s[i];
        if (c < 0x20 || c == '"' || c == '\\')
            break;
        *o++ = (char)c;
    }
    t->len = o - t->p;
    for (; i < n; i++) { /* the rest, once something needs escaping */
        uint8_t c = s[i];
        if (c == '"') {
            if (PUTS(t, "\\\""))
                return FAILED;
        } else if (c == '\\') {
            if (PUTS(t, "\\\\"))
                return FAILED;
        } else if (c < 0x20) {
            if (put(t, ESCAPES[c], (Py_ssize_t)strlen(ESCAPES[c])))
                return FAILED;
        } else {
            if (put(t, (const char *)&s[i], 1))
                return FAILED;
        }
    }
    return put(t, "\"", 1);
}

static int putf(Text *t, const char *fmt, ...) {
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return put(t, tmp, n);
}

/* -- scalars ------------------------------------------------------------------------------------ */

static uint64_t le(const uint8_t *p, int width) {
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* format_double: my_gcvt(x, MY_GCVT_ARG_DOUBLE, 34) placement of repr's shortest digits, ".0"
   added when neither '.' nor 'e' appears. */
static int put_double(Text *t, double x) {
    if (!isfinite(x))
        return PUTS(t, "0.0"); /* as format_double: dtoa's overflow result */
    char *r = PyOS_double_to_string(fabs(x), 'r', 0, 0, NULL);
    if (r == NULL)
        return FAILED;
    char *e = strchr(r, 'e');
    int exp = e ? atoi(e + 1) : 0;
    Py_ssize_t mlen = e ? e - r : (Py_ssize_t)strlen(r);
    char *dot = memchr(r, '.', (size_t)mlen);
    Py_ssize_t wlen = dot ? dot - r : mlen; /* whole part */
    char digits[64];
    Py_ssize_t nd = 0;
    for (Py_ssize_t i = 0; i < mlen && nd < 60; i++)
        if (r[i] != '.')
            digits[nd++] = r[i];
    PyMem_Free(r);
    Py_ssize_t lz = 0;
    while (lz < nd && digits[lz] == '0')
        lz++;
    const char *ds = digits + lz;
    Py_ssize_t n = nd - lz;
    while (n > 0 && ds[n - 1] == '0')
        n--;
    Py_ssize_t decpt;
    if (n == 0) {
        ds = "0";
        n = 1;
        decpt = 1;
    } else {
        decpt = wlen - lz + exp;
    }
    Py_ssize_t width = GCVT_WIDTH - (x < 0 ? 1 : 0);
    Py_ssize_t f_len = decpt <= 0 ? n - decpt + 2 : (decpt < n ? n + 1 : decpt);
    char out[128];
    Py_ssize_t o = 0;
    int point = 0;
    if (signbit(x))
        out[o++] = '-';
    if (f_len <= width && decpt >= 1 - MAX_DECPT_F && (decpt <= MAX_DECPT_F || n > decpt)) {
        if (decpt <= 0) {
            out[o++] = '0';
            out[o++] = '.';
            for (Py_ssize_t i = 0; i < -decpt; i++)
                out[o++] = '0';
            memcpy(out + o, ds, (size_t)n);
            o += n;
            point = 1;
        } else if (decpt < n) {
            memcpy(out + o, ds, (size_t)decpt);
            o += decpt;
            out[o++] = '.';
            memcpy(out + o, ds + decpt, (size_t)(n - decpt));
            o += n - decpt;
            point = 1;
        } else {
            memcpy(out + o, ds, (size_t)n);
            o += n;
            for (Py_ssize_t i = 0; i < decpt - n; i++)
                out[o++] = '0';
        }
    } else {
        out[o++] = ds[0];
        if (n > 1) {
            out[o++] = '.';
            memcpy(out + o, ds + 1, (size_t)(n - 1));
            o += n - 1;
        }
        o += snprintf(out + o, sizeof out - (size_t)o, "e%zd", decpt - 1);
        point = 1;
    }
    if (!point) {
        out[o++] = '.';
        out[o++] = '0';
    }
    return put(t, out, o);
}

/* -- layout lists ------------------------------------------------------------------------------- */

static PyObject *path_list(Walk *w, int depth) {
    PyObject *path = PyList_New(depth);
    if (path == NULL)
        return NULL;
    for (int i = 0; i < depth; i++) {
        Step *s = &w->steps[i];
        PyObject *step = s->key ? PyUnicode_DecodeUTF8((const char *)s->key, s->n, NULL)
                                : PyLong_FromSsize_t(s->n);
        if (step == NULL) {
            Py_DECREF(path);
            return NULL;
        }
        PyList_SET_ITEM(path, i, step);
    }
    return path;
}

static int append_new(PyObject **list, PyObject *item) {
    if (item == NULL)
        return FAILED;
    if (*list == NULL && (*list = PyList_New(0)) == NULL) {
        Py_DECREF(item);
        return FAILED;
    }
    int rc = PyList_Append(*list, item);
    Py_DECREF(item);
    return rc ? FAILED : OK;
}

static PyObject *hex(const uint8_t *p, Py_ssize_t n) {
    static const char digits[] = "0123456789abcdef";
    PyObject *s = PyUnicode_New(2 * n, 127);
    if (s == NULL)
        return NULL;
    Py_UCS1 *o = PyUnicode_1BYTE_DATA(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        *o++ = (Py_UCS1)digits[p[i] >> 4];
        *o++ = (Py_UCS1)digits[p[i] & 15];
    }
    return s;
}

/* A key that is not UTF-8 makes the text not UTF-8 (the Python's json_bytes): unusual. */
static int layout_failed(void) {
    if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        PyErr_Clear();
        return UNUSUAL;
    }
    return FAILED;
}

static int add_unsigned(Walk *w, int depth) {
    PyObject *path = path_list(w, depth);
    if (path == NULL)
        return layout_failed();
    return append_new(&w->unsigned_, path);
}

static int add_opaque(Walk *w, int depth, int field_type, const uint8_t *data, Py_ssize_t n) {
    if (field_type == 0)
        return OK; /* as _add_layout_lists: field type 0 has no entry */
    PyObject *path = path_list(w, depth);
    if (path == NULL)
        return layout_failed();
    PyObject *ft = PyLong_FromLong(field_type), *hx = hex(data, n), *entry = NULL;
    if (ft && hx && (entry = PyDict_New()) != NULL) {
        if (PyDict_SetItem(entry, s_path, path) || PyDict_SetItem(entry, s_field_type, ft) ||
            PyDict_SetItem(entry, s_data, hx))
            Py_CLEAR(entry);
    }
    Py_DECREF(path);
    Py_XDECREF(ft);
    Py_XDECREF(hx);
    return append_new(&w->opaque, entry);
}

/* -- opaque values ------------------------------------------------------------------------------ */

static const int DIG2BYTES[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
static const uint32_t POW10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                   1000000000};

/* Json_decimal: precision, scale, then decode_decimal's text. */
static int put_decimal(Text *t, int field_type, const uint8_t *d, Py_ssize_t len) {
    if (len < 2)
        return UNUSUAL;
    int precision = d[0], scale = d[1];
    if (precision < 1 || precision > 65 || scale > 30 || scale > precision)
        return UNUSUAL;
    int intg = precision - scale, groups[16], ng = 0, nint;
    if (intg % 9)
        groups[ng++] = intg % 9;
    for (int i = 0; i < intg / 9; i++)
        groups[ng++] = 9;
    nint = ng;
    for (int i = 0; i < scale / 9; i++)
        groups[ng++] = 9;
    if (scale % 9)
        groups[ng++] = scale % 9;
    Py_ssize_t size = 0;
    for (int i = 0; i < ng; i++)
        size += DIG2BYTES[groups[i]];
    if (len - 2 != size)
        return UNUSUAL;
    uint8_t v[40];
    memcpy(v, d + 2, (size_t)size);
    int negative = !(v[0] & 0x80);
    if (negative)
        for (Py_ssize_t i = 0; i < size; i++)
            v[i] = (uint8_t)~v[i];
    v[0] &= 0x7F;
    char text[100];
    int o = 0;
    const uint8_t *p = v;
    for (int i = 0; i < ng; i++) {
        int w = DIG2BYTES[groups[i]];
        uint32_t g = 0;
        for (int k = 0; k < w; k++)
            g = (g << 8) | *p++;
        if (g >= POW10[groups[i]])
            return UNUSUAL;
        if (i == nint)
            text[o++] = '.';
        o += snprintf(text + o, sizeof text - (size_t)o, "%0*u", groups[i], (unsigned)g);
    }
    if (scale && nint == ng) /* unreachable: a scale makes fraction groups */
        return UNUSUAL;
    int s = 0;
    while (s < o && text[s] == '0')
        s++;
    if (negative && put(t, "-", 1))
        return FAILED;
    if ((s == o || text[s] == '.') && put(t, "0", 1))
        return FAILED;
    return put(t, text + s, o - s);
}

static void two(char *o, int64_t v) { /* format_two_digits: outside 0..99 prints as 00 */
    if (v < 0 || v > 99)
        v = 0;
    o[0] = (char)('0' + v / 10);
    o[1] = (char)('0' + v % 10);
}

/* my_datetime_to_str(.., 6) / my_date_to_str of a packed value, quoted. */
static int put_datetime(Text *t, int64_t tmp, int with_time) {
    uint64_t a = tmp < 0 ? (uint64_t)0 - (uint64_t)tmp : (uint64_t)tmp;
    uint64_t ymdhms = a >> 24, usec = a % (1u << 24);
    uint64_t ymd = ymdhms >> 17, hms = ymdhms % (1u << 17), ym = ymd >> 5;
    int64_t year = (int64_t)(ym / 13);
    char o[40];
    o[0] = '"';
    two(o + 1, year / 100);
    two(o + 3, year % 100);
    o[5] = '-';
    two(o + 6, (int64_t)(ym % 13));
    o[8] = '-';
    two(o + 9, (int64_t)(ymd % 32));
    if (!with_time) {
        o[11] = '"';
        return put(t, o, 12);
    }
    o[11] = ' ';
    two(o + 12, (int64_t)(hms >> 12));
    o[14] = ':';
    two(o + 15, (int64_t)((hms >> 6) % 64));
    o[17] = ':';
    two(o + 18, (int64_t)(hms % 64));
    int n = snprintf(o + 20, sizeof o - 20, ".%06u\"", (unsigned)(usec % 1000000));
    return put(t, o, 20 + n);
}

static int put_time(Text *t, int64_t tmp) { /* my_time_to_str(.., 6), quoted */
    int neg = tmp < 0;
    uint64_t a = neg ? (uint64_t)0 - (uint64_t)tmp : (uint64_t)tmp;
    uint64_t hms = a >> 24, usec = a % (1u << 24);
    unsigned hour = (unsigned)((hms >> 12) % 1024), minute = (unsigned)((hms >> 6) % 64),
             second = (unsigned)(hms % 64);
    if (neg && !(hour || minute || second || usec))
        return PUTS(t, "\"2047:63:63.777215\""); /* jsonb.py _NEGATIVE_ZERO_TIME */
    return putf(t, "\"%s%02u:%02u:%02u.%06u\"", neg ? "-" : "", hour, minute, second,
                (unsigned)(usec % 1000000));
}

static int put_date(Text *t, int64_t tmp) { return put_datetime(t, tmp, 0); }
static int put_date_time(Text *t, int64_t tmp) { return put_datetime(t, tmp, 1); }

/* field type -> its INT64_MIN text (jsonb.py _INT64_MIN_TEXT) and its renderer */
static const struct {
    const char *min_text;
    int (*render)(Text *, int64_t);
} TEMPORAL[] = {
    [MYSQL_DATE] = {"\"0000-00-00\"", put_date},
    [MYSQL_TIME] = {"\"2047:63:63.777215\"", put_time},
    [MYSQL_DATETIME] = {"\"0014-10-00 00:00:00.000000\"", put_date_time},
    [MYSQL_TIMESTAMP] = {"\"0014-10-00 00:00:00.000000\"", put_date_time},
};

/* Json_datetime::from_packed: the first 8 bytes are a packed temporal longlong. */
static int put_temporal(Text *t, int field_type, const uint8_t *d, Py_ssize_t len) {
    if (len < 8)
        return UNUSUAL;
    int64_t tmp = (int64_t)le(d, 8);
    if (tmp == INT64_MIN)
        return put(t, TEMPORAL[field_type].min_text, (Py_ssize_t)strlen(TEMPORAL[field_type].min_text));
    return TEMPORAL[field_type].render(t, tmp);
}

/* _opaque_raw, quoted: base64 with a line break every 76 characters (written as \n). */
static int put_base64(Text *t, int field_type, const uint8_t *d, Py_ssize_t n) {
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    Py_ssize_t chars = (n + 2) / 3 * 4;
    if (putf(t, "\"base64:type%d:", field_type) || grow(t, chars + chars / 76 * 2 + 1))
        return FAILED;
    char *o = t->p + t->len;
    Py_ssize_t col = 0;
    for (Py_ssize_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)d[i + 1] << 8;
        if (i + 2 < n)
            v |= d[i + 2];
        char q[4] = {b64[(v >> 18) & 63], b64[(v >> 12) & 63], i + 1 < n ? b64[(v >> 6) & 63] : '=',
                     i + 2 < n ? b64[v & 63] : '='};
        for (int k = 0; k < 4; k++) {
            if (col == 76) {
                *o++ = '\\';
                *o++ = 'n';
                col = 0;
            }
            *o++ = q[k];
            col++;
        }
    }
    *o++ = '"';
    t->len = o - t->p;
    return OK;
}

static int put_var_string(Text *t, int field_type, const uint8_t *d, Py_ssize_t n) {
    return quoted(t, d, n); /* _opaque_raw: a VAR_STRING's bytes as they are */
}

/* MySQL field type -> the text of an opaque value of that type (jsonb.py _SPECIAL, then
   _opaque_raw); the types not listed are written as base64. */
typedef int OpaqueText(Text *, int, const uint8_t *, Py_ssize_t);
static OpaqueText *const OPAQUE_TEXT[256] = {
    [MYSQL_NEWDECIMAL] = put_decimal, [MYSQL_DATE] = put_temporal,         [MYSQL_TIME] = put_temporal,
    [MYSQL_DATETIME] = put_temporal,  [MYSQL_TIMESTAMP] = put_temporal,    [MYSQL_VAR_STRING] = put_var_string,
};

/* -- the walk ----------------------------------------------------------------------------------- */

static int value(Walk *w, int type, Py_ssize_t pos, Py_ssize_t avail, int depth);

/* _varlen at pos with avail bytes: 7 bits a byte, at most 5 bytes, < 2**32. */
static int varlen(Walk *w, Py_ssize_t pos, Py_ssize_t avail, Py_ssize_t *value, Py_ssize_t *taken) {
    uint64_t v = 0;
    Py_ssize_t lim = avail < 5 ? avail : 5;
    for (Py_ssize_t i = 0; i < lim; i++) {
        uint8_t b = w->b[pos + i];
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            if (v > 0xFFFFFFFFu)
                return UNUSUAL;
            *value = (Py_ssize_t)v;
            *taken = i + 1;
            return OK;
        }
    }
    return UNUSUAL;
}

static int span(Walk *w, Py_ssize_t need, Py_ssize_t avail) {
    if (need > avail)
        return UNUSUAL;
    w->budget -= need;
    return w->budget < 0 ? UNUSUAL : OK;
}

static int string(Walk *w, int type, Py_ssize_t pos, Py_ssize_t avail, int depth) {
    Py_ssize_t length, n;
    int rc = varlen(w, pos, avail, &length, &n);
    if (rc || (rc = span(w, n + length, avail)))
        return rc;
    w->last = n + length;
    return quoted(&w->out, w->b + pos + n, length);
}

static int opaque(Walk *w, int type, Py_ssize_t pos, Py_ssize_t avail, int depth) {
    if (avail < 1)
        return UNUSUAL;
    Py_ssize_t length, n;
    int rc = varlen(w, pos + 1, avail - 1, &length, &n);
    if (rc || (rc = span(w, 1 + n + length, avail)))
        return rc;
    int field_type = w->b[pos];
    const uint8_t *data = w->b + pos + 1 + n;
    w->last = 1 + n + length;
    if ((rc = add_opaque(w, depth, field_type, data, length)))
        return rc;
    OpaqueText *text = OPAQUE_TEXT[field_type];
    return (text ? text : put_base64)(&w->out, field_type, data, length);
}

enum { SIGNED, UNSIGNED, FLOAT };
static const struct {
    int width, kind;
} FIXED[] = {[INT16] = {2, SIGNED},   [UINT16] = {2, UNSIGNED}, [INT32] = {4, SIGNED}, [UINT32] = {4, UNSIGNED},
             [INT64] = {8, SIGNED},   [UINT64] = {8, UNSIGNED}, [DOUBLE] = {8, FLOAT}};

static int fixed(Walk *w, int type, Py_ssize_t pos, Py_ssize_t avail, int depth) {
    int width = FIXED[type].width, kind = FIXED[type].kind;
    if (avail < width)
        return UNUSUAL;
    uint64_t v = le(w->b + pos, width);
    w->last = width;
    if (kind == FLOAT) {
        double d;
        memcpy(&d, &v, 8);
        return put_double(&w->out, d);
    }
    if (kind == SIGNED) {
        uint64_t sign = (uint64_t)1 << (8 * width - 1);
        return putf(&w->out, "%lld", (long long)((v ^ sign) - sign)); /* sign-extended */
    }
    int rc = add_unsigned(w, depth); /* an unsigned integer's path goes in "unsigned" */
    return rc ? rc : putf(&w->out, "%llu", (unsigned long long)v);
}

static int literal(Walk *w, int type, Py_ssize_t pos, Py_ssize_t avail, int depth) {
    static const char *const LITERALS[] = {"null", "true", "false"};
    if (avail < 1 || w->b[pos] > 2)
        return UNUSUAL;
    w->last = 1;
    return put(&w->out, LITERALS[w->b[pos]], (Py_ssize_t)strlen(LITERALS[w->b[pos]]));
}

/* container type -> its form (jsonb.py _CONTAINERS): object or array, offset/size width, and the
   value types stored in the value entry itself (a bit per type byte) */
#define INLINED_SMALL ((1u << LITERAL) | (1u << INT16) | (1u << UINT16))
static const struct {
    int is_object, osz;
    unsigned inlined;
} SHAPES[] = {[SMALL_OBJECT] = {1, 2, INLINED_SMALL},
              [LARGE_OBJECT] = {1, 4, INLINED_SMALL | (1u << INT32) | (1u << UINT32)},
              [SMALL_ARRAY] = {0, 2, INLINED_SMALL},
              [LARGE_ARRAY] = {0, 4, INLINED_SMALL | (1u << INT32) | (1u << UINT32)}};

static int container(Walk *w, int type, Py_ssize_t pos, Py_ssize_t avail, int depth) {
    int is_object = SHAPES[type].is_object, osz = SHAPES[type].osz, ves = 1 + osz;
    unsigned inlined = SHAPES[type].inlined;
    if (++depth > MAX_DEPTH || avail < 2 * osz)
        return UNUSUAL;
    const uint8_t *b = w->b;
    int64_t count = (int64_t)le(b + pos, osz), size = (int64_t)le(b + pos + osz, osz);
    if (size > avail)
        return UNUSUAL;
    int64_t key_entries = is_object ? count * (osz + 2) : 0; /* count < 2**32: no overflow */
    int64_t header = 2 * osz + key_entries + count * ves;
    if (header > size)
        return UNUSUAL; /* from here on every entry lies inside the container */
    w->budget -= (Py_ssize_t)count;
    if (w->budget < 0)
        return UNUSUAL;
    Py_ssize_t keys_at = pos + 2 * osz, first = keys_at + (Py_ssize_t)key_entries;
    Py_ssize_t keys_end = (Py_ssize_t)header;
    if (is_object) { /* the keys first (the Python checks them after the values) */
        for (Py_ssize_t e = keys_at; e < first; e += osz + 2) {
            int64_t key_off = (int64_t)le(b + e, osz), key_len = (int64_t)le(b + e + osz, 2);
            if (key_off < header || key_off + key_len > size)
                return UNUSUAL;
            w->budget -= (Py_ssize_t)key_len;
            if (w->budget < 0)
                return UNUSUAL;
            if (key_off != keys_end)
                w->unfresh = 1;
            keys_end = (Py_ssize_t)(key_off + key_len);
        }
    }
    Text *out = &w->out;
    if (put(out, is_object ? "{" : "[", 1))
        return FAILED;
    Py_ssize_t data_at = -1, data_end = -1;
    Step *step = &w->steps[depth - 1];
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t e = first + i * ves;
        if (i && PUTS(out, ", "))
            return FAILED;
        if (is_object) {
            Py_ssize_t ke = keys_at + i * (osz + 2);
            step->key = b + pos + le(b + ke, osz);
            step->n = (Py_ssize_t)le(b + ke + osz, 2);
            if (quoted(out, step->key, step->n) || PUTS(out, ": "))
                return FAILED;
        } else {
            step->key = NULL;
            step->n = i;
        }
        int t = b[e], rc;
        if (t < 32 && (inlined >> t & 1)) {
            rc = value(w, t, e + 1, osz, depth); /* inlined in the value entry */
        } else {
            int64_t off = (int64_t)le(b + e + 1, osz);
            if (off < e - pos + ves || off > size)
                return UNUSUAL;
            rc = value(w, t, pos + (Py_ssize_t)off, (Py_ssize_t)(size - off), depth);
            if (off != data_end) {
                if (data_at >= 0)
                    w->unfresh = 1;
                data_at = (Py_ssize_t)off;
            }
            data_end = (Py_ssize_t)off + w->last;
        }
        if (rc)
            return rc;
    }
    Py_ssize_t values_from = data_at >= 0 ? data_at : keys_end, values_to = data_at >= 0 ? data_end : keys_end;
    if (values_from != keys_end || values_to != size || (osz == 4 && size <= 0xFFFF))
        w->unfresh = 1;
    w->last = (Py_ssize_t)size;
    return put(out, is_object ? "}" : "]", 1);
}

/* type byte -> its reader (jsonb.py _READERS); the bytes not listed are not JSON types */
typedef int Reader(Walk *, int, Py_ssize_t, Py_ssize_t, int);
static Reader *const READERS[256] = {
    [SMALL_OBJECT] = container, [LARGE_OBJECT] = container, [SMALL_ARRAY] = container, [LARGE_ARRAY] = container,
    [LITERAL] = literal,        [INT16] = fixed,            [UINT16] = fixed,          [INT32] = fixed,
    [UINT32] = fixed,           [INT64] = fixed,            [UINT64] = fixed,          [DOUBLE] = fixed,
    [STRING] = string,          [OPAQUE] = opaque,
};

static int value(Walk *w, int type, Py_ssize_t pos, Py_ssize_t avail, int depth) {
    Reader *read = READERS[type & 0xFF];
    return read ? read(w, type, pos, avail, depth) : UNUSUAL;
}

/* -- the module --------------------------------------------------------------------------------- */

static PyObject *null_document(void) {
    PyObject *d = PyDict_New(), *null = PyUnicode_FromString("null");
    if (d == NULL || null == NULL || PyDict_SetItem(d, s_type, s_json) || PyDict_SetItem(d, s_value, null)) {
        Py_XDECREF(d);
        Py_XDECREF(null);
        return NULL;
    }
    Py_DECREF(null);
    return d;
}

/* The dict for a walked document, or Py_None when its text is not UTF-8 (json_bytes). */
static PyObject *result(Walk *w, const uint8_t *doc, Py_ssize_t len) {
    PyObject *text = PyUnicode_DecodeUTF8(w->out.p, w->out.len, NULL);
    if (text == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
            return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *d = PyDict_New();
    int bad = d == NULL || PyDict_SetItem(d, s_type, s_json) || PyDict_SetItem(d, s_value, text);
    Py_DECREF(text);
    if (!bad && w->unfresh) {
        PyObject *h = hex(doc, len);
        bad = h == NULL || PyDict_SetItem(d, s_binary, h);
        Py_XDECREF(h);
    } else if (!bad) {
        bad = (w->opaque && PyDict_SetItem(d, s_opaque, w->opaque)) ||
              (w->unsigned_ && PyDict_SetItem(d, s_unsigned, w->unsigned_));
    }
    if (bad) {
        Py_XDECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *canonical(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3)
        Py_RETURN_NONE;
    Py_ssize_t start = PyLong_AsSsize_t(args[1]), end = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (end <= start)
        return null_document(); /* canonical_at: an empty document is the null literal */
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *out = NULL;
    if (start < 0 || end > view.len || view.itemsize != 1) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    Walk walk, *w = &walk;
    w->b = view.buf;
    w->budget = end - start;
    w->last = 0;
    w->unfresh = 0;
    w->opaque = w->unsigned_ = NULL;
    w->out.len = 0; /* the text is about the document's size; a big one grows by doubling */
    w->out.cap = (end - start) + (end - start) / 2 + 64;
    if (w->out.cap > (1 << 20))
        w->out.cap = 1 << 20;
    w->out.p = PyMem_Malloc((size_t)w->out.cap);
    int rc = w->out.p ? value(w, w->b[start], start + 1, end - start - 1, 0) : (PyErr_NoMemory(), FAILED);
    if (rc == OK) {
        if (1 + w->last != end - start)
            w->unfresh = 1; /* bytes past the value */
        out = result(w, w->b + start, end - start);
    } else if (rc == UNUSUAL) {
        out = Py_None;
        Py_INCREF(out);
    }
    PyMem_Free(w->out.p);
    Py_XDECREF(w->opaque);
    Py_XDECREF(w->unsigned_);
done:
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef methods[] = {
    {"canonical", (PyCFunction)(void (*)(void))canonical, METH_FASTCALL,
     "canonical(buf, start, end): jsonb.canonical_at's dict for buf[start:end], or None for "
     "anything the Python must handle (errors, non-UTF-8 text)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_jsonb",
                                    "C twin of oracle.codecs.jsonb.canonical_at (see _jsonb.c).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__jsonb(void) {
    struct {
        PyObject **slot;
        const char *text;
    } names[] = {{&s_type, "type"},       {&s_value, "value"},   {&s_json, "json"},
                 {&s_binary, "binary"},   {&s_opaque, "opaque"}, {&s_unsigned, "unsigned"},
                 {&s_path, "path"},       {&s_field_type, "field_type"}, {&s_data, "data"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (*names[i].slot == NULL && (*names[i].slot = PyUnicode_InternFromString(names[i].text)) == NULL)
            return NULL;
    return PyModule_Create(&module);
}

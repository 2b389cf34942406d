// The trend chart (Chart.js, vendored in static/vendor): accuracy per day as bars, median time as a
// line with large points, each on a titled axis. Bars and points stay readable with a single day of
// answers, where a line of one point would be a lone dot.
(function () {
  var source = document.getElementById("trend-data");
  var canvas = document.getElementById("trend");
  if (!source || !canvas || typeof Chart === "undefined") return;
  var data = JSON.parse(source.textContent);
  var few = data.chart.days.length < 4;
  new Chart(canvas, {
    type: "bar",
    data: {
      labels: data.chart.days,
      datasets: [
        { label: data.labels.accuracy, data: data.chart.accuracy, backgroundColor: "rgba(20, 108, 46, 0.75)", borderColor: "#146c2e", yAxisID: "y", maxBarThickness: 48, order: 2 },
        { type: "line", label: data.labels.median, data: data.chart.median_s, borderColor: "#0a58ca", backgroundColor: "#0a58ca", yAxisID: "y1", tension: 0.2, pointRadius: few ? 6 : 3, order: 1 }
      ]
    },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { position: "bottom" } },
      scales: {
        y: { min: 0, max: 100, position: "left", title: { display: true, text: data.labels.accuracy } },
        y1: { min: 0, position: "right", grid: { drawOnChartArea: false }, title: { display: true, text: data.labels.median } }
      }
    }
  });
  canvas.setAttribute("data-drawn", String(data.chart.days.length));
})();

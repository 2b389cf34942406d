// The trend chart (Chart.js, vendored in static/vendor): accuracy and median time per day.
(function () {
  var source = document.getElementById("trend-data");
  var canvas = document.getElementById("trend");
  if (!source || !canvas || typeof Chart === "undefined") return;
  var data = JSON.parse(source.textContent);
  new Chart(canvas, {
    type: "line",
    data: {
      labels: data.chart.days,
      datasets: [
        { label: data.labels.accuracy, data: data.chart.accuracy, borderColor: "#146c2e", backgroundColor: "#146c2e", yAxisID: "y", tension: 0.2 },
        { label: data.labels.median, data: data.chart.median_s, borderColor: "#0a58ca", backgroundColor: "#0a58ca", yAxisID: "y1", tension: 0.2 }
      ]
    },
    options: {
      maintainAspectRatio: false,
      animation: false,
      scales: {
        y: { min: 0, max: 100, position: "left" },
        y1: { min: 0, position: "right", grid: { drawOnChartArea: false } }
      }
    }
  });
})();
